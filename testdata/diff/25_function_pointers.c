/* Tests function pointers: tables of function pointers, callbacks, returning function pointers, typedefs. */
#include <stdio.h>

typedef int (*binop)(int, int);
typedef void (*visitor)(int idx, int val, void *ctx);

static int op_add(int a, int b) { return a + b; }
static int op_sub(int a, int b) { return a - b; }
static int op_mul(int a, int b) { return a * b; }
static int op_max(int a, int b) { return a > b ? a : b; }
static int op_min(int a, int b) { return a < b ? a : b; }

static const struct { const char *name; binop fn; } ops[] = {
    {"add", op_add}, {"sub", op_sub}, {"mul", op_mul}, {"max", op_max}, {"min", op_min},
};

static int fold(const int *a, int n, int init, binop f) {
    int acc = init;
    for (int i = 0; i < n; i++) acc = f(acc, a[i]);
    return acc;
}

static void for_each(const int *a, int n, visitor v, void *ctx) {
    for (int i = 0; i < n; i++) v(i, a[i], ctx);
}

static void print_visitor(int idx, int val, void *ctx) {
    (void)ctx;
    printf("  [%d]=%d\n", idx, val);
}

static void sum_visitor(int idx, int val, void *ctx) {
    long long *s = ctx;
    *s += (long long)val * (idx + 1);
}

static binop pick(char c) {
    switch (c) {
    case '+': return op_add;
    case '-': return op_sub;
    case '*': return op_mul;
    default: return 0;
    }
}

static int apply_n(binop f, int n, int x, int y) {
    for (int i = 0; i < n; i++) x = f(x, y);
    return x;
}

static int twice(int (*g)(int), int x) { return g(g(x)); }
static int inc(int x) { return x + 1; }
static int sq(int x) { return x * x; }

int main(void) {
    int data[] = {3, -1, 4, 1, -5, 9, 2, 6};
    int n = 8;
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        printf("fold %s = %d\n", ops[i].name, fold(data, n, i == 2 ? 1 : 0, ops[i].fn));
    for_each(data, n, print_visitor, 0);
    long long weighted = 0;
    for_each(data, n, sum_visitor, &weighted);
    printf("weighted sum = %lld\n", weighted);
    const char *expr = "+-*/";
    for (int i = 0; expr[i]; i++) {
        binop f = pick(expr[i]);
        if (f)
            printf("pick '%c': 12 op 5 = %d\n", expr[i], f(12, 5));
        else
            printf("pick '%c': null\n", expr[i]);
    }
    printf("apply_n mul 2^10 = %d\n", apply_n(op_mul, 10, 1, 2));
    printf("twice inc 5 = %d, twice sq 3 = %d\n", twice(inc, 5), twice(sq, 3));
    int (*arr[2])(int) = {inc, sq};
    int v = 2;
    for (int i = 0; i < 6; i++) {
        v = arr[i % 2](v);
        printf("chain %d -> %d\n", i, v);
    }
    binop same = op_add;
    printf("fn ptr equality: %d %d\n", same == op_add, same == op_sub);
    int (**pp)(int) = &arr[1];
    printf("via ptr-to-fnptr: %d\n", (*pp)(11));
    return 0;
}
