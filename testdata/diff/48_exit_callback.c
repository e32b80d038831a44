/* Tests exit(n) from a callback invoked through a function pointer during a list traversal; frees nothing first; exits 133. */
#include <stdio.h>
#include <stdlib.h>

struct item { int id; int weight; struct item *next; };
typedef void (*visit_fn)(const struct item *, long *);

static void visit_all(const struct item *it, visit_fn f, long *acc) {
    for (; it; it = it->next) f(it, acc);
}

static void accumulate(const struct item *it, long *acc) {
    *acc += it->weight;
    printf("item %2d weight %3d total %ld\n", it->id, it->weight, *acc);
    if (*acc > 500) {
        printf("budget exceeded at item %d\n", it->id);
        exit((int)(*acc % 256) > 0 ? 133 : 1);
    }
}

int main(void) {
    struct item *head = NULL;
    for (int i = 30; i >= 1; i--) {
        struct item *n = malloc(sizeof *n);
        n->id = i;
        n->weight = (i * 37) % 50 + 1;
        n->next = head;
        head = n;
    }
    long acc = 0;
    visit_all(head, accumulate, &acc);
    printf("not reached\n");
    return 0;
}
