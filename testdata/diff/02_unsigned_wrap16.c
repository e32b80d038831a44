/* Tests wrap-around arithmetic on uint16_t, including promotion pitfalls handled via uint32_t. */
#include <stdio.h>
#include <stdint.h>

static uint16_t mul16(uint16_t a, uint16_t b) { return (uint16_t)((uint32_t)a * b); }

int main(void) {
    uint16_t vals[] = {0, 1, 255, 256, 1000, 32767, 32768, 40000, 65534, 65535};
    int n = (int)(sizeof vals / sizeof vals[0]);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j += 3) {
            uint16_t a = vals[i], b = vals[j];
            uint16_t s = (uint16_t)(a + b);
            uint16_t d = (uint16_t)(a - b);
            uint16_t m = mul16(a, b);
            printf("%5u %5u : + %5u  - %5u  * %5u  ^ %04x\n", a, b, s, d, m, (unsigned)(a ^ b));
        }
    }
    uint16_t h = 0;
    for (int i = 0; i < 20; i++) {
        h = (uint16_t)(h * 31u + (uint16_t)(i * 977));
    }
    printf("hash16 = %u (0x%04X)\n", h, h);
    uint16_t w = 65530;
    for (int i = 0; i < 10; i++) {
        w++;
        printf("w=%u\n", w);
    }
    uint16_t z = 0;
    z--;
    printf("0-- = %u, hd=%hd, hu=%hu\n", z, (short)z, z);
    return 0;
}
