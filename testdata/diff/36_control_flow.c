/* Tests goto, do/while, while, for with break/continue, nested loop exits, and labelled cleanup paths. */
#include <stdio.h>
#include <stdlib.h>

static int find_pair(const int *a, int n, int target, int *oi, int *oj) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (a[i] + a[j] == target) { *oi = i; *oj = j; goto found; }
    return 0;
found:
    return 1;
}

static int process(int mode) {
    int rc = -1;
    char *a = malloc(16);
    if (!a) goto out;
    char *b = malloc(32);
    if (!b) goto free_a;
    if (mode == 1) { rc = 1; goto free_b; }
    if (mode == 2) { rc = 2; goto free_b; }
    rc = 0;
free_b:
    free(b);
free_a:
    free(a);
out:
    return rc;
}

int main(void) {
    int i = 0;
    do {
        printf("do-while i=%d\n", i);
        i += 3;
    } while (i < 10);
    int k = 100;
    do { printf("runs once k=%d\n", k); } while (k < 50);
    int n = 27, steps = 0;
    while (n != 1) { n = (n % 2) ? 3 * n + 1 : n / 2; steps++; }
    printf("collatz(27) steps=%d\n", steps);
    for (int x = 0; x < 20; x++) {
        if (x % 3 == 0) continue;
        if (x > 14) break;
        printf("x=%d ", x);
    }
    printf("\n");
    int a[] = {8, 3, 11, 7, 2, 9, 4};
    int pi = -1, pj = -1;
    for (int t = 10; t <= 20; t += 5) {
        if (find_pair(a, 7, t, &pi, &pj)) printf("pair for %d: a[%d]+a[%d]\n", t, pi, pj);
        else printf("no pair for %d\n", t);
    }
    for (int m = 0; m < 3; m++) printf("process(%d) = %d\n", m, process(m));
    /* backwards goto loop */
    int g = 0;
again:
    g++;
    if (g < 5) { printf("goto loop g=%d\n", g); goto again; }
    /* nested loops with flag-based exit */
    int found = 0;
    for (int r = 0; r < 10 && !found; r++)
        for (int c = 0; c < 10; c++) {
            if (r * c == 42) { printf("r=%d c=%d\n", r, c); found = 1; break; }
        }
    /* while with complex condition and continue */
    int w = 0, sum = 0;
    while (w++ < 50) {
        if (w % 7) continue;
        sum += w;
        if (sum > 100) break;
    }
    printf("w=%d sum=%d\n", w, sum);
    /* infinite loop with break */
    unsigned v = 1;
    for (;;) {
        v *= 3;
        if (v > 10000) break;
    }
    printf("v=%u\n", v);
    /* comma operator in for */
    for (int p = 0, q = 10; p < q; p += 2, q -= 1) printf("p=%d q=%d\n", p, q);
    /* empty-body loop */
    int e;
    for (e = 0; e * e < 200; e++) ;
    printf("e=%d\n", e);
    return 200;
}
