/* Tests wrap-around arithmetic on uint8_t (add, sub, mul, neg, inc/dec, compound ops). */
#include <stdio.h>
#include <stdint.h>

static uint8_t add8(uint8_t a, uint8_t b) { return (uint8_t)(a + b); }
static uint8_t sub8(uint8_t a, uint8_t b) { return (uint8_t)(a - b); }
static uint8_t mul8(uint8_t a, uint8_t b) { return (uint8_t)((unsigned)a * (unsigned)b); }

int main(void) {
    uint8_t vals[] = {0, 1, 2, 7, 100, 127, 128, 129, 200, 254, 255};
    int n = (int)(sizeof vals / sizeof vals[0]);
    for (int i = 0; i < n; i++) {
        uint8_t a = vals[i];
        uint8_t b = vals[n - 1 - i];
        printf("a=%3u b=%3u add=%3u sub=%3u mul=%3u neg=%3u not=%3u\n",
               a, b, add8(a, b), sub8(a, b), mul8(a, b),
               (uint8_t)-a, (uint8_t)~a);
    }
    uint8_t c = 250;
    for (int i = 0; i < 10; i++) {
        c++;
        printf("inc %d -> %u\n", i, c);
    }
    uint8_t d = 5;
    for (int i = 0; i < 8; i++) {
        d--;
        printf("dec %d -> %u\n", i, d);
    }
    uint8_t acc = 1;
    for (int i = 0; i < 12; i++) {
        acc *= 3;
        printf("pow3 step %2d = %3u\n", i + 1, acc);
    }
    uint8_t x = 200;
    x += 100;
    printf("200+=100 -> %u\n", x);
    x -= 250;
    printf("-=250 -> %u\n", x);
    x <<= 3;
    printf("<<=3 -> %u\n", x);
    unsigned sum = 0;
    uint8_t k = 0;
    do {
        sum += k;
        k += 37;
    } while (k != 0 && sum < 100000);
    printf("sum over 37-stride cycle = %u, k=%u\n", sum, k);
    /* comparisons after wrap */
    uint8_t p = 10, q = 20;
    uint8_t diff = (uint8_t)(p - q);
    printf("10-20 as u8 = %u, >100? %d\n", diff, diff > 100);
    printf("promoted p-q as int = %d\n", p - q);
    return 0;
}
