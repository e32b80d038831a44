/* Tests min/max/abs/clamp patterns (lowered to select and smin/smax/umin/umax/abs intrinsics at -O1) across widths. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static int clamp(int v, int lo, int hi) { return imin(imax(v, lo), hi); }
static long long labs_(long long v) { return v < 0 ? -v : v; }
static int8_t sat_add8(int8_t a, int8_t b) {
    int s = a + b;
    return (int8_t)(s > 127 ? 127 : s < -128 ? -128 : s);
}
static uint8_t sat_addu8(uint8_t a, uint8_t b) {
    unsigned s = (unsigned)a + b;
    return (uint8_t)(s > 255 ? 255 : s);
}
static uint8_t sat_subu8(uint8_t a, uint8_t b) { return (uint8_t)(a > b ? a - b : 0); }

int main(void) {
    int vals[] = {INT_MIN, -1000, -1, 0, 1, 999, INT_MAX};
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 7; j += 3)
            printf("min(%d,%d)=%d max=%d umin=%u umax=%u\n", vals[i], vals[j], imin(vals[i], vals[j]), imax(vals[i], vals[j]),
                   umin((unsigned)vals[i], (unsigned)vals[j]), umax((unsigned)vals[i], (unsigned)vals[j]));
    for (int v = -300; v <= 300; v += 75) printf("clamp(%d,-100,200)=%d\n", v, clamp(v, -100, 200));
    long long ls[] = {LLONG_MIN + 1, -5000000000LL, -1, 0, 7, LLONG_MAX};
    for (int i = 0; i < 6; i++) printf("labs(%lld)=%lld\n", ls[i], labs_(ls[i]));
    int8_t a8[] = {-128, -100, -1, 0, 50, 100, 127};
    for (int i = 0; i < 7; i++) printf("sat8 %d+%d=%d  %d+%d=%d\n", a8[i], a8[6 - i], sat_add8(a8[i], a8[6 - i]), a8[i], a8[i],
                                       sat_add8(a8[i], a8[i]));
    uint8_t u8[] = {0, 1, 100, 128, 200, 255};
    for (int i = 0; i < 6; i++) printf("satu8 %u+%u=%u %u-%u=%u\n", u8[i], u8[5 - i], sat_addu8(u8[i], u8[5 - i]), u8[i],
                                       u8[5 - i], sat_subu8(u8[i], u8[5 - i]));
    /* running min/max over an LCG stream */
    uint32_t st = 99;
    int mn = INT_MAX, mx = INT_MIN;
    unsigned umn = UINT_MAX, umx = 0;
    for (int i = 0; i < 500; i++) {
        st = st * 1103515245u + 12345u;
        int x = (int)(st >> 1) - (1 << 30);
        mn = imin(mn, x);
        mx = imax(mx, x);
        umn = umin(umn, st);
        umx = umax(umx, st);
    }
    printf("stream min=%d max=%d umin=%u umax=%u\n", mn, mx, umn, umx);
    /* conditional selects with side-effect free arms */
    int cnt_pos = 0, cnt_neg = 0, sum_sel = 0;
    for (int i = -10; i <= 10; i++) {
        cnt_pos += i > 0;
        cnt_neg += i < 0 ? 1 : 0;
        sum_sel += (i & 1) ? i * 3 : -i;
    }
    printf("pos=%d neg=%d sum_sel=%d\n", cnt_pos, cnt_neg, sum_sel);
    return 0;
}
