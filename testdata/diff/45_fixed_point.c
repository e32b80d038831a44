/* Tests Q16.16 fixed-point arithmetic: multiply/divide with 64-bit intermediates, sqrt, sin series, rounding. */
#include <stdio.h>
#include <stdint.h>

typedef int32_t fix;
#define FRAC 16
#define ONE ((fix)1 << FRAC)

static fix fix_from_int(int x) { return (fix)((uint32_t)x << FRAC); }
static fix fix_mul(fix a, fix b) { return (fix)(((int64_t)a * b) >> FRAC); }
static fix fix_div(fix a, fix b) { return (fix)(((int64_t)a * ONE) / b); }

static void fix_print(const char *label, fix v) {
    int neg = v < 0;
    uint32_t u = neg ? 0u - (uint32_t)v : (uint32_t)v;
    uint32_t ip = u >> FRAC;
    uint32_t frac = (uint32_t)(((uint64_t)(u & 0xFFFFu) * 100000u + 0x8000u) >> FRAC);
    if (frac >= 100000u) { ip++; frac -= 100000u; }
    printf("%-12s = %s%u.%05u (raw 0x%08x)\n", label, neg ? "-" : "", ip, frac, (uint32_t)v);
}

static fix fix_sqrt(fix x) {
    if (x <= 0) return 0;
    fix g = x > ONE ? x / 2 : ONE;
    for (int i = 0; i < 30; i++) {
        fix ng = (g + fix_div(x, g)) / 2;
        if (ng == g) break;
        g = ng;
    }
    return g;
}

static fix fix_sin(fix x) { /* Taylor series, x in [-pi, pi] */
    fix term = x, sum = x, x2 = fix_mul(x, x);
    for (int n = 1; n < 8; n++) {
        term = fix_mul(term, x2);
        term = -term / ((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}

int main(void) {
    fix a = fix_from_int(3) + ONE / 4;  /* 3.25 */
    fix b = -fix_from_int(2) - ONE / 3; /* -2.333 */
    fix_print("a", a);
    fix_print("b", b);
    fix_print("a+b", a + b);
    fix_print("a-b", a - b);
    fix_print("a*b", fix_mul(a, b));
    fix_print("a/b", fix_div(a, b));
    fix_print("b/a", fix_div(b, a));
    for (int i = 1; i <= 10; i++) {
        char label[16] = "sqrt(";
        label[5] = (char)('0' + i % 10);
        if (i == 10) { label[5] = '1'; label[6] = '0'; label[7] = ')'; label[8] = 0; }
        else { label[6] = ')'; label[7] = 0; }
        fix_print(label, fix_sqrt(fix_from_int(i)));
    }
    const fix pi = 205887; /* pi * 65536 */
    for (int k = -4; k <= 4; k++) {
        fix x = (fix)((int64_t)pi * k / 4);
        char label[16] = "sin(k*pi/4)";
        label[4] = (char)(k < 0 ? '-' : '+');
        label[5] = (char)('0' + (k < 0 ? -k : k));
        fix_print(label, fix_sin(x));
    }
    /* compound interest in fixed point: 1000 * 1.05^n */
    fix money = fix_from_int(1000);
    fix rate = ONE + ONE / 20;
    for (int y = 1; y <= 10; y++) {
        money = fix_mul(money, rate);
        printf("year %2d: %d.%02d\n", y, money >> FRAC, (int)(((money & 0xFFFF) * 100) >> FRAC));
    }
    /* 8.8 fixed point with int16 */
    int16_t q = (int16_t)(1 << 8); /* 1.0 */
    for (int i = 0; i < 6; i++) {
        q = (int16_t)((q * 3) / 2);
        printf("q8.8 = %d (int part %d, frac/256 %d)\n", q, q >> 8, q & 0xff);
    }
    return 0;
}
