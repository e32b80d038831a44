/* Tests double computations (Newton sqrt, numeric integration, float vs double) printed with %e, %g and %f. */
#include <stdio.h>

static double my_sqrt(double v) {
    double g = v > 1 ? v / 2 : 1.0;
    for (int i = 0; i < 40; i++) g = 0.5 * (g + v / g);
    return g;
}

static double f(double x) { return x * x * x - 2.0 * x + 1.0; }

int main(void) {
    double vals[] = {2.0, 10.0, 1e6, 0.25, 12345.678};
    for (int i = 0; i < 5; i++) {
        double s = my_sqrt(vals[i]);
        printf("sqrt(%g) = %f  [%e]  sq=%g\n", vals[i], s, s, s * s);
    }
    /* trapezoid integration of f over [0,2] */
    for (int n = 4; n <= 256; n *= 4) {
        double h = 2.0 / n, sum = 0.5 * (f(0.0) + f(2.0));
        for (int i = 1; i < n; i++) sum += f(i * h);
        printf("trapezoid n=%3d: %.6f\n", n, sum * h);
    }
    double big = 1.0;
    for (int i = 0; i < 8; i++) {
        big *= 1000.0;
        printf("1000^%d = %g = %e\n", i + 1, big, big);
    }
    double small = 1.0;
    for (int i = 0; i < 5; i++) {
        small /= 64.0;
        printf("64^-%d = %g = %e\n", i + 1, small, small);
    }
    float fx = 1.0f / 3.0f;
    double dx = 1.0 / 3.0;
    printf("float third %.9f double third %.9f diff*1e9=%d\n", (double)fx, dx, (int)((dx - fx) * 1e9));
    printf("g formats: %g %g %g %g\n", 100000.0, 1000000.0, 0.0001, 0.00001);
    /* bisection for root of f in [0,0.9] */
    double lo = 0.0, hi = 0.9;
    for (int i = 0; i < 50; i++) {
        double mid = (lo + hi) / 2;
        if ((f(lo) < 0) == (f(mid) < 0)) lo = mid; else hi = mid;
    }
    printf("root ~ %.6f f(root)*1e9 = %d\n", lo, (int)(f(lo) * 1e9));
    return 0;
}
