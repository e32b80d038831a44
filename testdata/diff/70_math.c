/* libm on double and float. The exact operations (sqrt, floor, ceil,
   trunc, round, fabs, fmod, fmin, fmax) are printed with all 17 digits;
   the others, which may differ from glibc in the last bit, with 12. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

int main(void) {
  double xs[] = {0.0, 0.5, 1.0, 1.5, 2.0, 2.5, -2.5, 3.7, -3.7, 10.0, 123.456, 1e-5, 1e10, -0.0};
  for (int i = 0; i < 14; i++) {
    double x = xs[i];
    printf("x=%g sqrt=%.17g floor=%.17g ceil=%.17g trunc=%.17g round=%.17g fabs=%.17g fmod=%.17g\n", x,
           sqrt(fabs(x)), floor(x), ceil(x), trunc(x), round(x), fabs(x), fmod(x, 0.75));
    printf("  exp=%.12g log=%.12g log2=%.12g log10=%.12g sin=%.12g cos=%.12g tan=%.12g atan=%.12g\n",
           exp(x / 4), log(fabs(x) + 1), log2(fabs(x) + 1), log10(fabs(x) + 1), sin(x), cos(x), tan(x), atan(x));
    printf("  pow=%.12g atan2=%.12g exp2=%.12g cbrt=%.12g hypot=%.12g tanh=%.12g\n",
           pow(fabs(x), 1.5), atan2(x, 2.0), exp2(x / 3), cbrt(x), hypot(x, 3.0), tanh(x / 5));
  }
  float fs[] = {0.25f, 1.0f, 2.5f, -7.75f, 100.0f};
  for (int i = 0; i < 5; i++) {
    float f = fs[i];
    printf("f=%g sqrtf=%.9g floorf=%.9g ceilf=%.9g roundf=%.9g fabsf=%.9g fmodf=%.9g sinf=%.6g expf=%.6g powf=%.6g\n", f,
           sqrtf(fabsf(f)), floorf(f), ceilf(f), roundf(f), fabsf(f), fmodf(f, 0.3f), sinf(f), expf(f / 10), powf(fabsf(f), 0.5f));
  }
  for (int i = 0; i < 7; i++) {
    double x = -0.9 + i * 0.3;
    printf("asin %.12g acos %.12g sinh %.12g cosh %.12g\n", asin(x), acos(x), sinh(x), cosh(x));
  }
  int (*iabs)(int) = abs;
  long (*labsp)(long) = labs;
  printf("abs %d %d %ld %lld %d %ld\n", abs(-7), abs(7), labs(-9000000000L), llabs(-5LL), iabs(-3), labsp(-4));
  printf("fmin %g fmax %g fmin-nan %g\n", fmin(1.0, 2.0), fmax(1.0, 2.0), fmin(NAN, 3.0));
  printf("sqrt(-1) nan %d, log(0) %g, pow(0,0) %g, floor(inf) %g\n", isnan(sqrt(-1.0)), log(0.0), pow(0.0, 0.0), floor(INFINITY));
  double acc = 0;
  for (int i = 1; i <= 200; i++) acc += sqrt((double)i) * floor(i / 3.0) - ceil(i / 7.0);
  printf("acc %.17g\n", acc);
  double s = 0;
  for (int i = 1; i <= 100; i++) s += sin(i * 0.1) * cos(i * 0.05) + log((double)i) / exp(i / 50.0);
  printf("series %.10f\n", s);
  return 0;
}
