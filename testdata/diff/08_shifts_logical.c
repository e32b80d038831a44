/* Tests left shifts and logical right shifts at 8/16/32/64 bits with all valid shift amounts. */
#include <stdio.h>
#include <stdint.h>

int main(void) {
    uint8_t a8 = 0xA5;
    for (int s = 0; s < 8; s++)
        printf("u8  0x%02x <<%d = 0x%02x  >>%d = 0x%02x\n", a8, s, (uint8_t)(a8 << s), s, (uint8_t)(a8 >> s));
    uint16_t a16 = 0xBEEF;
    for (int s = 0; s < 16; s += 3)
        printf("u16 0x%04x <<%2d = 0x%04x  >>%2d = 0x%04x\n", a16, s, (uint16_t)(a16 << s), s, (uint16_t)(a16 >> s));
    uint32_t a32 = 0xDEADBEEFu;
    for (int s = 0; s < 32; s += 3)
        printf("u32 <<%2d = 0x%08x  >>%2d = 0x%08x\n", s, a32 << s, s, a32 >> s);
    printf("u32 <<31 = 0x%08x >>31 = 0x%08x\n", a32 << 31, a32 >> 31);
    uint64_t a64 = 0x0123456789ABCDEFULL;
    for (int s = 0; s < 64; s += 7)
        printf("u64 <<%2d = %016llx  >>%2d = %016llx\n", s, (unsigned long long)(a64 << s), s,
               (unsigned long long)(a64 >> s));
    printf("u64 <<63 = %016llx >>63 = %016llx\n", (unsigned long long)(a64 << 63), (unsigned long long)(a64 >> 63));
    /* variable shift amounts taken from data */
    unsigned amounts[] = {0, 1, 5, 13, 31};
    for (int i = 0; i < 5; i++) {
        uint32_t v = 1u << amounts[i];
        printf("1u<<%u = %u, mask = 0x%08x\n", amounts[i], v, v - 1u);
    }
    /* build value from bytes with shifts */
    unsigned char bytes[4] = {0x12, 0x34, 0x56, 0x78};
    uint32_t be = ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) | bytes[3];
    uint32_t le = ((uint32_t)bytes[3] << 24) | ((uint32_t)bytes[2] << 16) | ((uint32_t)bytes[1] << 8) | bytes[0];
    printf("be=0x%08x le=0x%08x\n", be, le);
    /* signed positive left shifts that stay in range */
    int sv = 1;
    for (int s = 0; s < 31; s += 5)
        printf("1<<%d = %d\n", s, sv << s);
    long long lv = 3;
    printf("3LL<<40 = %lld\n", lv << 40);
    return 0;
}
