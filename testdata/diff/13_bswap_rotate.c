/* Tests __builtin_bswap16/32/64, manual byte swapping, and rotate idioms. */
#include <stdio.h>
#include <stdint.h>

static uint32_t rotl32(uint32_t x, unsigned r) { r &= 31; return r ? (x << r) | (x >> (32 - r)) : x; }
static uint32_t rotr32(uint32_t x, unsigned r) { r &= 31; return (x >> r) | (x << ((32 - r) & 31)); }
static uint64_t rotl64(uint64_t x, unsigned r) { r &= 63; return r ? (x << r) | (x >> (64 - r)) : x; }

static uint32_t manual_bswap32(uint32_t x) {
    return ((x & 0xFFu) << 24) | ((x & 0xFF00u) << 8) | ((x >> 8) & 0xFF00u) | (x >> 24);
}

int main(void) {
    uint32_t w[] = {0x00000000u, 0x12345678u, 0xDEADBEEFu, 0xFF000000u, 0x000000FFu, 0x01020304u};
    for (int i = 0; i < 6; i++)
        printf("bswap32(%08x) = %08x manual=%08x\n", w[i], __builtin_bswap32(w[i]), manual_bswap32(w[i]));
    uint64_t d[] = {0x0123456789ABCDEFULL, 0xFF00000000000000ULL, 0x00000000000000FFULL, 0x1122334455667788ULL};
    for (int i = 0; i < 4; i++)
        printf("bswap64(%016llx) = %016llx\n", (unsigned long long)d[i], (unsigned long long)__builtin_bswap64(d[i]));
    uint16_t h[] = {0x1234, 0xABCD, 0x00FF};
    for (int i = 0; i < 3; i++)
        printf("bswap16(%04x) = %04x\n", h[i], __builtin_bswap16(h[i]));
    for (unsigned r = 0; r < 32; r += 4)
        printf("rotl32(0x80000001,%2u)=%08x rotr32=%08x\n", r, rotl32(0x80000001u, r), rotr32(0x80000001u, r));
    for (unsigned r = 0; r < 64; r += 8)
        printf("rotl64(%2u)=%016llx\n", r, (unsigned long long)rotl64(0x0123456789ABCDEFULL, r));
    /* simple hash with rotates */
    uint32_t hash = 0x9E3779B9u;
    const char *msg = "rotate and mix";
    for (int i = 0; msg[i]; i++) {
        hash ^= (unsigned char)msg[i];
        hash = rotl32(hash, 5) * 0x01000193u;
    }
    printf("hash=%08x\n", hash);
    printf("bswap(bswap(x))==x: %d\n", __builtin_bswap32(__builtin_bswap32(0xCAFEF00Du)) == 0xCAFEF00Du);
    return 0;
}
