/* Tests __builtin_add_overflow / __builtin_sub_overflow / __builtin_mul_overflow at several widths and signedness. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

int main(void) {
    int iv[] = {0, 1, -1, 1000, -1000, 46341, -46341, INT_MAX, INT_MIN};
    int n = 9;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j += 2) {
            int a = iv[i], b = iv[j], r1, r2, r3;
            int o1 = __builtin_add_overflow(a, b, &r1);
            int o2 = __builtin_sub_overflow(a, b, &r2);
            int o3 = __builtin_mul_overflow(a, b, &r3);
            printf("%d,%d: add %d/%d sub %d/%d mul %d/%d\n", a, b, o1, r1, o2, r2, o3, r3);
        }
    unsigned uv[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 65536u};
    for (int i = 0; i < 6; i++) {
        unsigned a = uv[i], b = uv[5 - i], r1, r2, r3;
        int o1 = __builtin_add_overflow(a, b, &r1);
        int o2 = __builtin_sub_overflow(a, b, &r2);
        int o3 = __builtin_mul_overflow(a, b, &r3);
        printf("u %u,%u: add %d/%u sub %d/%u mul %d/%u\n", a, b, o1, r1, o2, r2, o3, r3);
    }
    long long lv[] = {LLONG_MAX, LLONG_MIN, 3037000500LL, -3037000500LL, 1};
    for (int i = 0; i < 5; i++) {
        long long a = lv[i], b = lv[(i + 2) % 5], r;
        int o = __builtin_mul_overflow(a, b, &r);
        printf("ll mul %lld * %lld: ovf=%d r=%lld\n", a, b, o, r);
        o = __builtin_add_overflow(a, b, &r);
        printf("ll add: ovf=%d r=%lld\n", o, r);
    }
    /* mixed types: result narrower than operands */
    int8_t r8;
    for (int v = 120; v <= 130; v += 3) {
        int o = __builtin_add_overflow(v, 0, &r8);
        printf("int %d -> int8: ovf=%d r=%d\n", v, o, r8);
    }
    uint8_t u8;
    int o8 = __builtin_sub_overflow(5, 10, &u8);
    printf("5-10 into uint8: ovf=%d r=%u\n", o8, u8);
    uint16_t u16;
    int o16 = __builtin_mul_overflow((uint16_t)300, (uint16_t)300, &u16);
    printf("300*300 into uint16: ovf=%d r=%u\n", o16, u16);
    unsigned long long ur;
    int ou = __builtin_mul_overflow(0xffffffffULL, 0x100000001ULL, &ur);
    printf("u64 mul: ovf=%d r=%llx\n", ou, ur);
    ou = __builtin_mul_overflow(0x100000000ULL, 0x100000000ULL, &ur);
    printf("u64 2^64: ovf=%d r=%llx\n", ou, ur);
    /* safe factorial with overflow detection */
    long long f = 1;
    for (int k = 1; k <= 25; k++) {
        long long nf;
        if (__builtin_mul_overflow(f, (long long)k, &nf)) { printf("factorial overflows at %d\n", k); break; }
        f = nf;
        printf("%d! = %lld\n", k, f);
    }
    int sum = 0, steps = 0;
    while (!__builtin_add_overflow(sum, 100000000, &sum)) steps++;
    printf("add steps before overflow=%d sum=%d\n", steps, sum);
    return 0;
}
