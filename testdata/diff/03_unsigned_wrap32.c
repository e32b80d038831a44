/* Tests wrap-around arithmetic on uint32_t: add/sub/mul/neg, LCG sequences, unsigned division. */
#include <stdio.h>
#include <stdint.h>

int main(void) {
    uint32_t vals[] = {0u, 1u, 2u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xdeadbeefu, 0xfffffffeu, 0xffffffffu};
    int n = (int)(sizeof vals / sizeof vals[0]);
    for (int i = 0; i < n; i++) {
        uint32_t a = vals[i], b = vals[(i * 5 + 3) % n];
        printf("a=%08x b=%08x add=%08x sub=%08x mul=%08x neg=%08x\n",
               a, b, a + b, a - b, a * b, -a);
        if (b != 0)
            printf("   a/b=%u a%%b=%u\n", a / b, a % b);
        else
            printf("   b is zero\n");
    }
    uint32_t x = 12345u;
    for (int i = 0; i < 16; i++) {
        x = x * 1103515245u + 12345u;
        printf("lcg[%2d] = %10u  top=%5u\n", i, x, x >> 16);
    }
    uint32_t f = 1;
    for (uint32_t i = 1; i <= 20; i++) {
        f *= i;
        printf("%2u! mod 2^32 = %u\n", i, f);
    }
    uint32_t m = 0xffffffffu;
    m += 2;
    printf("max+2 = %u\n", m);
    uint32_t k = 3;
    printf("3 - 5 = %u\n", k - 5u);
    printf("(3-5)/2 = %u\n", (k - 5u) / 2u);
    printf("compare -1 > 0 as unsigned: %d\n", (uint32_t)-1 > 0u);
    return 0;
}
