/* Tests float/double arithmetic printed with %f and %.3f: sums, products, conversions, simple series. */
#include <stdio.h>

int main(void) {
    double a = 1.5, b = -2.25, c = 1.0 / 8.0;
    printf("a=%f b=%f c=%f\n", a, b, c);
    printf("a+b=%.3f a*b=%.3f a/b=%.3f\n", a + b, a * b, a / b);
    float f = 0.0f;
    for (int i = 0; i < 10; i++) {
        f += 0.125f * (float)i;
        printf("f[%d]=%f\n", i, (double)f);
    }
    double x = 1.0;
    for (int i = 1; i <= 12; i++) {
        x *= 1.5;
        printf("1.5^%-2d = %.3f\n", i, x);
    }
    /* Leibniz series for pi */
    double pi = 0.0;
    for (int k = 0; k < 2000; k++) pi += (k % 2 ? -4.0 : 4.0) / (2 * k + 1);
    printf("pi approx = %.3f\n", pi);
    /* e via series */
    double e = 1.0, term = 1.0;
    for (int n = 1; n < 15; n++) { term /= n; e += term; }
    printf("e approx = %f\n", e);
    int ints[] = {-7, 0, 3, 100, 123456};
    for (int i = 0; i < 5; i++) printf("int %d as double = %f, half = %.3f\n", ints[i], (double)ints[i], ints[i] / 2.0);
    double neg = -0.0005;
    printf("small negative rounded: %.3f\n", neg * 10);
    printf("exact quarters: %.3f %.3f %.3f\n", 0.25, 0.75, -1.125);
    return 0;
}
