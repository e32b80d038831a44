/* Tests defined signed arithmetic edge cases: INT_MIN/INT_MAX comparisons, negation, abs, widening. */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

static int iabs(int x) { return x < 0 ? -x : x; }

int main(void) {
    int vals[] = {INT_MIN, INT_MIN + 1, -1000000, -2, -1, 0, 1, 2, 999999, INT_MAX - 1, INT_MAX};
    int n = (int)(sizeof vals / sizeof vals[0]);
    for (int i = 0; i < n; i++) {
        int a = vals[i];
        printf("%11d: <0=%d ==MIN=%d ==MAX=%d >-5=%d", a, a < 0, a == INT_MIN, a == INT_MAX, a > -5);
        if (a != INT_MIN)
            printf(" neg=%d abs=%d", -a, iabs(a));
        else
            printf(" (no neg)");
        long long wide = (long long)a * 3 - 7;
        printf(" wide=%lld\n", wide);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j += 4) {
            int a = vals[i], b = vals[j];
            int lt = a < b, eq = a == b;
            long long sum = (long long)a + b;
            long long dif = (long long)a - b;
            printf("cmp %d %d lt=%d eq=%d sum=%lld dif=%lld\n", a, b, lt, eq, sum, dif);
        }
    printf("INT_MAX=%d INT_MIN=%d\n", INT_MAX, INT_MIN);
    printf("INT_MIN+INT_MAX=%d\n", INT_MIN + INT_MAX);
    printf("SCHAR range %d..%d, SHRT %d..%d\n", SCHAR_MIN, SCHAR_MAX, SHRT_MIN, SHRT_MAX);
    printf("LLONG_MAX=%lld LLONG_MIN=%lld\n", LLONG_MAX, LLONG_MIN);
    int64_t big = INT64_C(-9000000000000000000);
    printf("big/7=%lld big%%7=%lld\n", (long long)(big / 7), (long long)(big % 7));
    int m = -17;
    m *= 3;
    m += 100;
    m -= -5;
    printf("m=%d\n", m);
    return 3;
}
