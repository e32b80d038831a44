/* Tests signed division and modulo with negative operands at all widths (truncation toward zero). */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

int main(void) {
    int nums[] = {-17, -16, -7, -1, 0, 1, 7, 16, 17, INT_MAX, INT_MIN};
    int dens[] = {-5, -3, -2, -1, 1, 2, 3, 5, 7};
    for (int i = 0; i < 11; i++) {
        for (int j = 0; j < 9; j++) {
            int a = nums[i], b = dens[j];
            if (a == INT_MIN && b == -1) {
                printf("%d / %d skipped\n", a, b);
                continue;
            }
            if (j % 3 == 0)
                printf("%d/%d=%d %d%%%d=%d\n", a, b, a / b, a, b, a % b);
        }
    }
    int8_t s8[] = {-128, -100, -7, 7, 127};
    for (int i = 0; i < 5; i++) {
        int8_t q = (int8_t)(s8[i] / 3), r = (int8_t)(s8[i] % 3);
        printf("i8 %d /3=%d %%3=%d  /-4=%d %%-4=%d\n", s8[i], q, r, s8[i] / -4, s8[i] % -4);
    }
    int16_t s16[] = {-32768, -12345, -1, 1, 32767};
    for (int i = 0; i < 5; i++)
        printf("i16 %d /10=%d %%10=%d\n", s16[i], s16[i] / 10, s16[i] % 10);
    long long l[] = {LLONG_MIN, -1000000000000LL, -3, 3, LLONG_MAX};
    for (int i = 0; i < 5; i++)
        printf("i64 %lld /7=%lld %%7=%lld /-1000=%lld\n", l[i], l[i] / 7, l[i] % 7, l[i] / -1000);
    /* division by constants (optimiser turns these into multiplications) */
    for (int v = -20; v <= 20; v += 5)
        printf("v=%3d v/2=%3d v/4=%3d v/10=%3d v%%4=%3d v%%10=%3d\n", v, v / 2, v / 4, v / 10, v % 4, v % 10);
    /* floor division built from truncating division */
    for (int v = -7; v <= 7; v += 7) {
        int d = 2;
        int fq = v / d - ((v % d != 0) && ((v < 0) != (d < 0)));
        printf("floor(%d/%d)=%d\n", v, d, fq);
    }
    return 0;
}
