/* Tests truncation, sign extension and zero extension between all integer widths, and int<->char. */
#include <stdio.h>
#include <stdint.h>

static int64_t sext8(uint8_t b) { return (int64_t)(int8_t)b; }
static uint64_t zext8(uint8_t b) { return (uint64_t)b; }
static int64_t sext16(uint16_t h) { return (int64_t)(int16_t)h; }
static int64_t sext32(uint32_t w) { return (int64_t)(int32_t)w; }

int main(void) {
    uint64_t src[] = {0x0ULL, 0x7FULL, 0x80ULL, 0xFFULL, 0x1234ULL, 0x8000ULL, 0xFFFFULL,
                      0x7FFFFFFFULL, 0x80000000ULL, 0xFEDCBA9876543210ULL, 0xFFFFFFFFFFFFFFFFULL};
    for (int i = 0; i < 11; i++) {
        uint64_t v = src[i];
        uint8_t t8 = (uint8_t)v;
        uint16_t t16 = (uint16_t)v;
        uint32_t t32 = (uint32_t)v;
        printf("v=%016llx t8=%02x t16=%04x t32=%08x\n", (unsigned long long)v, t8, t16, t32);
        printf("   sext8=%lld zext8=%llu sext16=%lld sext32=%lld\n", (long long)sext8(t8),
               (unsigned long long)zext8(t8), (long long)sext16(t16), (long long)sext32(t32));
        printf("   i8=%d i16=%d i32=%d\n", (int8_t)t8, (int16_t)t16, (int32_t)t32);
    }
    /* int <-> char */
    for (int c = 60; c < 130; c += 7) {
        char ch = (char)(c & 0x7f);
        unsigned char uch = (unsigned char)(c + 100);
        signed char sch = (signed char)(c + 100);
        printf("c=%3d ch=%c(%d) uch=%u sch=%d\n", c, ch, ch, uch, sch);
    }
    const char *s = "Az09~";
    for (int i = 0; s[i]; i++) {
        int code = s[i];
        printf("'%c' -> %d -> upper? %d -> digit value %d\n", s[i], code, code >= 'A' && code <= 'Z',
               (code >= '0' && code <= '9') ? code - '0' : -1);
    }
    /* chains of casts */
    int x = -1;
    printf("(uint8_t)(int16_t)-1 = %u\n", (uint8_t)(int16_t)x);
    printf("(int32_t)(uint16_t)-1 = %d\n", (int32_t)(uint16_t)x);
    printf("(int64_t)(uint32_t)-1 = %lld\n", (long long)(int64_t)(uint32_t)x);
    printf("(uint64_t)(int32_t)-1 = %llx\n", (unsigned long long)(uint64_t)(int32_t)x);
    short sh = -12345;
    printf("short %hd as ushort %hu as hex %hx\n", sh, (unsigned short)sh, (unsigned short)sh);
    signed char hc = -100;
    printf("hhd %hhd hhu %hhu hhx %hhx\n", hc, (unsigned char)hc, (unsigned char)hc);
    _Bool b1 = (_Bool)256, b2 = (_Bool)0, b3 = (_Bool)-3;
    printf("bool casts %d %d %d\n", b1, b2, b3);
    return 0;
}
