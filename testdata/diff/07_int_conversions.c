/* Tests unsigned<->signed conversions, integer promotions and usual arithmetic conversions. */
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

int main(void) {
    int neg = -1;
    unsigned u = 1;
    printf("(-1 < 1u) = %d\n", (unsigned)neg < u);
    printf("(long long)-1 < 1u = %d\n", (long long)neg < (long long)u);
    unsigned big = 4000000000u;
    printf("(int)4000000000u = %d\n", (int)big);
    printf("(unsigned)-5 = %u\n", (unsigned)-5);
    printf("(uint8_t)300 = %u, (int8_t)200 = %d\n", (uint8_t)300, (int8_t)200);
    printf("(uint16_t)-1 = %u, (int16_t)40000 = %d\n", (uint16_t)-1, (int16_t)40000);
    printf("(uint64_t)-1 = %llu\n", (unsigned long long)(uint64_t)-1);
    printf("(int64_t)0xffffffffu = %lld\n", (long long)(int64_t)0xffffffffu);
    printf("(int64_t)(int)0xffffffffu = %lld\n", (long long)(int64_t)(int)0xffffffffu);
    unsigned char uc = 250;
    signed char sc = -6;
    printf("uc+sc = %d, uc*2 = %d\n", uc + sc, uc * 2);
    printf("(unsigned char)sc = %u\n", (unsigned char)sc);
    unsigned short us = 65535;
    printf("us+1 = %d (promoted to int)\n", us + 1);
    long long ll = -3;
    unsigned int ui = 2;
    printf("ll*ui = %lld\n", ll * ui);
    unsigned long long ull = 5;
    printf("ull - 10 = %llu\n", ull - 10);
    for (int i = -4; i <= 4; i++) {
        unsigned int c = (unsigned int)i;
        int8_t t8 = (int8_t)(i * 40);
        uint8_t u8 = (uint8_t)(i * 40);
        printf("i=%2d as u32=%10u as u16=%5u i*40 i8=%4d u8=%3u\n", i, c, (uint16_t)i, t8, u8);
    }
    /* mixed comparisons */
    int64_t s64 = -1;
    uint32_t u32 = 0xffffffffu;
    printf("s64 < u32 : %d\n", s64 < (int64_t)u32);
    printf("s64 == (int32)u32 : %d\n", s64 == (int32_t)u32);
    printf("size of int=%zu long=%zu ll=%zu short=%zu ptr=%zu\n", sizeof(int), sizeof(long),
           sizeof(long long), sizeof(short), sizeof(void *));
    return 0;
}
