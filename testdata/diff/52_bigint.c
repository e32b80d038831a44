/* Tests multi-precision arithmetic with 32-bit limbs and 64-bit intermediates: factorials, powers of two, decimal printing. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define LIMBS 40

typedef struct { uint32_t d[LIMBS]; int n; } big;

static void big_set(big *b, uint32_t v) { memset(b, 0, sizeof *b); b->d[0] = v; b->n = 1; }

static void big_mul_small(big *b, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < LIMBS) b->d[b->n++] = (uint32_t)carry;
}

static void big_add(big *r, const big *a, const big *b) {
    uint64_t carry = 0;
    int n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        uint64_t x = i < a->n ? a->d[i] : 0, y = i < b->n ? b->d[i] : 0;
        uint64_t t = x + y + carry;
        r->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    r->n = n;
    if (carry && n < LIMBS) r->d[r->n++] = (uint32_t)carry;
}

static uint32_t big_divmod_small(big *b, uint32_t dv) {
    uint64_t rem = 0;
    for (int i = b->n - 1; i >= 0; i--) {
        uint64_t cur = (rem << 32) | b->d[i];
        b->d[i] = (uint32_t)(cur / dv);
        rem = cur % dv;
    }
    while (b->n > 1 && b->d[b->n - 1] == 0) b->n--;
    return (uint32_t)rem;
}

static int big_is_zero(const big *b) { return b->n == 1 && b->d[0] == 0; }

static void big_print(const char *label, const big *b) {
    big t = *b;
    char digits[400];
    int nd = 0;
    do {
        uint32_t chunk = big_divmod_small(&t, 1000000000u);
        for (int k = 0; k < 9; k++) { digits[nd++] = (char)('0' + chunk % 10); chunk /= 10; }
    } while (!big_is_zero(&t));
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    printf("%s = ", label);
    for (int i = nd - 1; i >= 0; i--) printf("%c", digits[i]);
    printf(" (%d digits, %d limbs)\n", nd, b->n);
}

int main(void) {
    big f;
    big_set(&f, 1);
    for (uint32_t i = 1; i <= 60; i++) {
        big_mul_small(&f, i);
        if (i % 10 == 0 || i == 25) {
            char label[8] = "  !";
            label[0] = (char)('0' + i / 10);
            label[1] = (char)('0' + i % 10);
            big_print(label, &f);
        }
    }
    big p;
    big_set(&p, 1);
    for (int e = 1; e <= 256; e++) {
        big_mul_small(&p, 2);
        if (e == 64 || e == 100 || e == 128 || e == 200 || e == 256) {
            char label[8] = "2^";
            label[2] = (char)('0' + e / 100);
            label[3] = (char)('0' + e / 10 % 10);
            label[4] = (char)('0' + e % 10);
            label[5] = 0;
            big_print(label, &p);
        }
    }
    big a, b, c;
    big_set(&c, 0);
    big_set(&a, 0);
    big_set(&b, 1);
    for (int i = 2; i <= 300; i++) {
        big_add(&c, &a, &b);
        a = b;
        b = c;
        if (i % 50 == 0) {
            char label[12] = "fib(";
            label[4] = (char)('0' + i / 100);
            label[5] = (char)('0' + i / 10 % 10);
            label[6] = (char)('0' + i % 10);
            label[7] = ')';
            label[8] = 0;
            big_print(label, &b);
        }
    }
    big_set(&a, 1);
    for (int i = 0; i < 20; i++) big_mul_small(&a, 3);
    uint32_t r7 = big_divmod_small(&a, 7);
    big_print("3^20 / 7", &a);
    printf("3^20 mod 7 = %u\n", r7);
    return 0;
}
