/* Tests arithmetic right shift of negative values at all widths and shift-based sign tricks. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static int sign_of(int x) { return (x >> 31) | (int)((unsigned)-x >> 31); }

int main(void) {
    int8_t v8 = -100;
    for (int s = 0; s < 8; s++)
        printf("i8 %d >> %d = %d\n", v8, s, (int8_t)(v8 >> s));
    int16_t v16 = -30000;
    for (int s = 0; s < 16; s += 2)
        printf("i16 %d >> %2d = %d\n", v16, s, (int16_t)(v16 >> s));
    int32_t v32 = INT_MIN;
    for (int s = 0; s < 32; s += 3)
        printf("i32 %d >> %2d = %d\n", v32, s, v32 >> s);
    printf("i32 -1 >> 31 = %d\n", -1 >> 31);
    int64_t v64 = LLONG_MIN + 12345;
    for (int s = 0; s < 64; s += 9)
        printf("i64 %lld >> %2d = %lld\n", (long long)v64, s, (long long)(v64 >> s));
    printf("i64 >>63 = %lld\n", (long long)(v64 >> 63));
    int xs[] = {-9, -8, -7, -1, 0, 1, 7, 8, 9};
    for (int i = 0; i < 9; i++) {
        int x = xs[i];
        int mask = x >> 31;
        int absx = (x ^ mask) - mask;
        printf("x=%2d x>>1=%2d x/2=%2d x>>2=%2d x/4=%2d abs=%d sign=%d\n", x, x >> 1, x / 2, x >> 2, x / 4, absx, sign_of(x));
    }
    /* mixed: shift negative after cast to unsigned is logical */
    int neg = -256;
    printf("(unsigned)-256 >> 4 = %u, -256 >> 4 = %d\n", (unsigned)neg >> 4, neg >> 4);
    long long nl = -1000000000000LL;
    printf("(ull)nl >> 20 = %llu, nl >> 20 = %lld\n", (unsigned long long)nl >> 20, nl >> 20);
    /* sign extension of a bit field via shifts on unsigned then convert */
    uint32_t raw = 0x00000FFAu; /* 12-bit value 0xFFA = -6 */
    int32_t ext = (int32_t)(raw << 20) >> 20;
    printf("sext12(0x%x) = %d\n", raw, ext);
    return 0;
}
