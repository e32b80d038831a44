/* Tests CRC32 (table-driven and bitwise), Adler-32, and a 16-bit Fletcher checksum over several messages. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}

static uint32_t crc32_table(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static uint32_t crc32_bitwise(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t adler32(const unsigned char *p, size_t n) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) { a = (a + p[i]) % 65521u; b = (b + a) % 65521u; }
    return (b << 16) | a;
}

static uint16_t fletcher16(const unsigned char *p, size_t n) {
    uint16_t s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; i++) { s1 = (uint16_t)((s1 + p[i]) % 255); s2 = (uint16_t)((s2 + s1) % 255); }
    return (uint16_t)((s2 << 8) | s1);
}

int main(void) {
    crc_init();
    printf("table[1]=%08x table[128]=%08x table[255]=%08x\n", crc_table[1], crc_table[128], crc_table[255]);
    const char *msgs[] = {"", "a", "abc", "123456789", "The quick brown fox jumps over the lazy dog",
                          "Wyvern LLVM interpreter test corpus", "\x01\x02\x03\x04\xff\xfe"};
    for (int i = 0; i < 7; i++) {
        const unsigned char *p = (const unsigned char *)msgs[i];
        size_t n = strlen(msgs[i]);
        uint32_t t = crc32_table(p, n), b = crc32_bitwise(p, n);
        printf("msg %d len %2zu crc32=%08x bitwise=%08x %s adler=%08x fletcher=%04x\n", i, n, t, b,
               t == b ? "ok" : "MISMATCH", adler32(p, n), fletcher16(p, n));
    }
    unsigned char buf[1024];
    for (int i = 0; i < 1024; i++) buf[i] = (unsigned char)(i * 31 + (i >> 3));
    printf("crc32(1KiB) = %08x\n", crc32_table(buf, sizeof buf));
    for (int len = 1; len <= 1024; len *= 4) printf("prefix %4d crc=%08x adler=%08x\n", len, crc32_table(buf, (size_t)len), adler32(buf, (size_t)len));
    /* incremental: crc of concatenation equals streamed crc */
    uint32_t c = 0xFFFFFFFFu;
    for (int i = 0; i < 1024; i++) c = crc_table[(c ^ buf[i]) & 0xFFu] ^ (c >> 8);
    printf("streamed crc = %08x\n", c ^ 0xFFFFFFFFu);
    buf[500] ^= 1;
    printf("after bit flip = %08x\n", crc32_table(buf, sizeof buf));
    return 0;
}
