/* Tests bitwise ops and bit tricks: popcount by loop vs __builtin_popcount, clz/ctz, parity, isolating bits. */
#include <stdio.h>
#include <stdint.h>

static int popcount_loop(uint32_t x) {
    int c = 0;
    while (x) {
        c += (int)(x & 1u);
        x >>= 1;
    }
    return c;
}

static int popcount_kernighan(uint64_t x) {
    int c = 0;
    while (x) {
        x &= x - 1;
        c++;
    }
    return c;
}

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

static uint32_t next_pow2(uint32_t x) {
    x--;
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return x + 1;
}

static uint32_t reverse_bits(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; i++) {
        r = (r << 1) | (x & 1u);
        x >>= 1;
    }
    return r;
}

int main(void) {
    uint32_t vals[] = {1u, 2u, 3u, 7u, 8u, 100u, 255u, 256u, 1000u, 0x80000000u, 0xFFFFFFFFu, 0x12345678u, 0xF0F0F0F0u};
    for (int i = 0; i < 13; i++) {
        uint32_t v = vals[i];
        printf("v=%08x pop=%2d/%2d clz=%2d ctz=%2d parity=%d pow2=%d low=%08x clearlow=%08x rev=%08x\n",
               v, popcount_loop(v), __builtin_popcount(v), __builtin_clz(v), __builtin_ctz(v),
               __builtin_parity(v), is_pow2(v), v & (0u - v), v & (v - 1u), reverse_bits(v));
    }
    uint64_t v64[] = {1ULL, 0x8000000000000000ULL, 0x00000000FFFFFFFFULL, 0x0123456789ABCDEFULL, 0xFFFFFFFFFFFFFFFFULL};
    for (int i = 0; i < 5; i++) {
        uint64_t v = v64[i];
        printf("v64=%016llx pop=%2d/%2d clzll=%2d ctzll=%2d\n", (unsigned long long)v, popcount_kernighan(v),
               __builtin_popcountll(v), __builtin_clzll(v), __builtin_ctzll(v));
    }
    for (uint32_t x = 1; x < 2000; x = x * 3 + 1)
        printf("next_pow2(%u) = %u\n", x, next_pow2(x));
    uint32_t a = 0xCAFEBABEu, b = 0x0F0F1234u;
    printf("and=%08x or=%08x xor=%08x andnot=%08x nor=%08x\n", a & b, a | b, a ^ b, a & ~b, ~(a | b));
    /* swap via xor */
    uint32_t p = 11, q = 22;
    p ^= q;
    q ^= p;
    p ^= q;
    printf("swapped p=%u q=%u\n", p, q);
    /* count total set bits 0..1023 */
    int total = 0;
    for (unsigned i = 0; i < 1024; i++)
        total += __builtin_popcount(i);
    printf("total bits 0..1023 = %d\n", total);
    /* ffs */
    printf("ffs(0)=%d ffs(12)=%d ffs(0x80000000)=%d\n", __builtin_ffs(0), __builtin_ffs(12), __builtin_ffs((int)0x40000000));
    return 0;
}
