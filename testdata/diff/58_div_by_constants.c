/* Tests division/modulo by constants at all widths (optimised into multiply-high sequences at -O1) vs variable divisors. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static volatile unsigned vdiv[] = {3, 5, 7, 10, 13, 1000};

int main(void) {
    uint32_t u[] = {0u, 1u, 6u, 99u, 1000u, 65535u, 123456789u, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
    for (int i = 0; i < 11; i++) {
        uint32_t x = u[i];
        printf("u32 %10u: /3=%u %%3=%u /7=%u %%7=%u /10=%u %%10=%u /1000=%u /641=%u\n", x, x / 3, x % 3, x / 7, x % 7,
               x / 10, x % 10, x / 1000, x / 641);
        int ok = x / 3 == x / vdiv[0] && x % 5 == x % vdiv[1] && x / 7 == x / vdiv[2] && x % 13 == x % vdiv[4];
        printf("   matches variable divisors: %d\n", ok);
    }
    int32_t s[] = {INT_MIN, -1000000007, -100, -7, -1, 0, 1, 7, 100, 1000000007, INT_MAX};
    for (int i = 0; i < 11; i++) {
        int32_t x = s[i];
        printf("i32 %11d: /3=%d %%3=%d /-7=%d %%-7=%d /16=%d %%16=%d /100=%d\n", x, x / 3, x % 3, x / -7, x % -7, x / 16,
               x % 16, x / 100);
    }
    uint64_t U[] = {0ULL, 12345678901234567ULL, 0x8000000000000000ULL, 0xffffffffffffffffULL};
    for (int i = 0; i < 4; i++)
        printf("u64 %20llu: /10=%llu %%10=%llu /1000000007=%llu %%1000000007=%llu\n", (unsigned long long)U[i],
               (unsigned long long)(U[i] / 10), (unsigned long long)(U[i] % 10), (unsigned long long)(U[i] / 1000000007u),
               (unsigned long long)(U[i] % 1000000007u));
    int64_t S[] = {LLONG_MIN, -98765432109876LL, -1, 5, LLONG_MAX};
    for (int i = 0; i < 5; i++)
        printf("i64 %20lld: /7=%lld %%7=%lld /-1000=%lld\n", (long long)S[i], (long long)(S[i] / 7), (long long)(S[i] % 7),
               (long long)(S[i] / -1000));
    uint16_t h = 65535;
    uint8_t b = 255;
    printf("u16 /7=%u %%7=%u, u8 /3=%u %%3=%u\n", h / 7, h % 7, b / 3, b % 3);
    /* digit extraction using /10 and %10 */
    unsigned long long v = 18446744073709551615ULL;
    char digits[24];
    int n = 0;
    while (v) { digits[n++] = (char)('0' + v % 10); v /= 10; }
    printf("digits reversed: ");
    for (int i = 0; i < n; i++) printf("%c", digits[i]);
    printf("\n");
    return 0;
}
