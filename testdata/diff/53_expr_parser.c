/* Tests a recursive-descent expression parser/evaluator over strings with precedence, parentheses, unary minus and errors. */
#include <stdio.h>
#include <string.h>

struct parser { const char *s; int pos; int err; };

static long long parse_expr(struct parser *p);

static void skip_ws(struct parser *p) { while (p->s[p->pos] == ' ') p->pos++; }

static long long parse_primary(struct parser *p) {
    skip_ws(p);
    char c = p->s[p->pos];
    if (c == '(') {
        p->pos++;
        long long v = parse_expr(p);
        skip_ws(p);
        if (p->s[p->pos] != ')') { p->err = 1; return 0; }
        p->pos++;
        return v;
    }
    if (c == '-') { p->pos++; return -parse_primary(p); }
    if (c >= '0' && c <= '9') {
        long long v = 0;
        while (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
            v = v * 10 + (p->s[p->pos++] - '0');
            if (v > 1000000000000LL) { p->err = 3; return 0; }
        }
        return v;
    }
    p->err = 2;
    return 0;
}

static long long parse_term(struct parser *p) {
    long long v = parse_primary(p);
    for (;;) {
        skip_ws(p);
        char c = p->s[p->pos];
        if (c != '*' && c != '/' && c != '%') return v;
        p->pos++;
        long long r = parse_primary(p);
        if (p->err) return 0;
        if (c == '*') {
            if (__builtin_mul_overflow(v, r, &v)) { p->err = 5; return 0; }
        } else {
            if (r == 0) { p->err = 4; return 0; }
            v = c == '/' ? v / r : v % r;
        }
    }
}

static long long parse_expr(struct parser *p) {
    long long v = parse_term(p);
    for (;;) {
        skip_ws(p);
        char c = p->s[p->pos];
        if (c != '+' && c != '-') return v;
        p->pos++;
        long long r = parse_term(p);
        if (p->err) return 0;
        if (c == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v)) { p->err = 5; return 0; }
    }
}

static const char *err_names[] = {"ok", "missing )", "unexpected char", "number too big", "division by zero", "overflow"};

int main(void) {
    const char *exprs[] = {
        "1 + 2 * 3", "(1 + 2) * 3", "100 / 7", "100 % 7", "-100 / 7", "-100 % 7", "2 * (3 + 4) * (5 - 6)",
        "((((42))))", "1 - 2 - 3 - 4", "2 * 3 % 4", "--5", "10 / (5 - 5)", "(1 + 2", "3 + x",
        "999999999999 * 999999999999", "1000000 * 1000000 * 1000000", "7 * -(-6)", " 12 + 30 ",
        "1+2+3+4+5+6+7+8+9+10", "(2*3*4*5*6*7*8*9*10*11*12*13) / 1000",
    };
    int n = (int)(sizeof exprs / sizeof exprs[0]);
    int errors = 0;
    for (int i = 0; i < n; i++) {
        struct parser p = {exprs[i], 0, 0};
        long long v = parse_expr(&p);
        skip_ws(&p);
        if (!p.err && p.s[p.pos] != '\0') p.err = 2;
        if (p.err) { errors++; printf("%-32s => error: %s at %d\n", exprs[i], err_names[p.err], p.pos); }
        else printf("%-32s => %lld\n", exprs[i], v);
    }
    printf("errors: %d of %d (len of last %zu)\n", errors, n, strlen(exprs[n - 1]));
    return errors;
}
