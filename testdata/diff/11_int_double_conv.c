/* Tests int<->double/float conversions in range, printed only via integer conversion. */
#include <stdio.h>
#include <stdint.h>

static double poly(double x) { return 3.0 * x * x - 2.5 * x + 0.75; }

int main(void) {
    int ints[] = {-1000000, -7, -1, 0, 1, 7, 123456, 2147483647};
    for (int i = 0; i < 8; i++) {
        double d = (double)ints[i];
        float f = (float)ints[i] / 4.0f;
        printf("int %d -> double*1.5 trunc %lld, /4 float trunc %d\n", ints[i], (long long)(d * 1.5), (int)f);
    }
    double ds[] = {-3.99, -3.5, -3.01, -0.5, 0.0, 0.49, 0.5, 2.999, 1e9, -1e9, 123456.789};
    for (int i = 0; i < 11; i++) {
        double d = ds[i];
        int t = (int)d;
        long long scaled = (long long)(d * 1000.0);
        int rounded = (int)(d < 0 ? d - 0.5 : d + 0.5);
        printf("d*1000=%lld trunc=%d round=%d\n", scaled, t, rounded);
    }
    unsigned u = 4000000000u;
    double du = u;
    printf("u->double->u: %u\n", (unsigned)du);
    uint64_t big = 1ULL << 53;
    double db = (double)big;
    printf("2^53 -> double -> u64: %llu\n", (unsigned long long)(uint64_t)db);
    printf("(2^53+1) -> double -> u64: %llu\n", (unsigned long long)(uint64_t)(double)(big + 1));
    for (int i = -3; i <= 3; i++) {
        double p = poly(i);
        printf("poly(%d)*100 = %d\n", i, (int)(p * 100.0));
    }
    /* sqrt by Newton iteration, compared as scaled integer */
    for (int n = 1; n <= 10; n++) {
        double x = n;
        double g = x / 2.0 + 0.5;
        for (int it = 0; it < 20; it++)
            g = 0.5 * (g + x / g);
        printf("sqrt(%2d)*1e6 = %ld\n", n, (long)(g * 1e6));
    }
    float fsum = 0.0f;
    for (int i = 1; i <= 100; i++)
        fsum += 1.0f / (float)i;
    printf("harmonic100*1e4 = %d\n", (int)(fsum * 10000.0f));
    double comp = 0.1 + 0.2;
    printf("0.1+0.2 == 0.3? %d, > 0.3? %d\n", comp == 0.3, comp > 0.3);
    printf("(int)-0.9 = %d, (unsigned)3.9 = %u, (char)65.7 = %c\n", (int)-0.9, (unsigned)3.9, (char)65.7);
    return 0;
}
