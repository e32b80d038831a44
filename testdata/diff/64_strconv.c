/* atoi/atol/atoll, strtol/strtoll/strtoul/strtoull: bases 0, 2..36,
   prefixes, signs, white space, end pointers and saturation; strtod,
   strtof and atof on decimal numbers, inf and nan. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const char *ints[] = {"0", "42", "  -17xyz", "+8", "2147483647", "-2147483648", "  \t\n 99", "abc", "", "-", "12e3", "007"};
  for (int i = 0; i < 12; i++) printf("atoi(\"%s\")=%d atol=%ld atoll=%lld\n", ints[i], atoi(ints[i]), atol(ints[i]), atoll(ints[i]));
  const char *in[] = {"0x1A", "0X1a", "017", "0", "0x", "0xg", "-0x10", "1010", "zz", "ZZ", "9223372036854775807",
                      "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "99999999999999999999999",
                      "18446744073709551615", "18446744073709551616", "-1", "  +077 rest", "08"};
  int bases[] = {0, 10, 16, 8, 2, 36};
  for (int i = 0; i < 20; i++) {
    for (int b = 0; b < 6; b++) {
      char *e1, *e2;
      long v = strtol(in[i], &e1, bases[b]);
      unsigned long u = strtoul(in[i], &e2, bases[b]);
      printf("%s/%d: %ld +%d %lu +%d\n", in[i], bases[b], v, (int)(e1 - in[i]), u, (int)(e2 - in[i]));
    }
  }
  char *end;
  long long x = strtoll("  -123456789012345 tail", &end, 10);
  unsigned long long y = strtoull("ffffffffffffffff", NULL, 16);
  printf("%lld [%s] %llu\n", x, end, y);
  printf("%ld\n", strtol("111", NULL, 2) + strtol("z", NULL, 36));
  const char *fl[] = {"3.25", "  -1e3xyz", ".5", "1.", "+7.125e-2", "inf", "-Infinity", "nan", "abc", "", "1e400", "2.5e-400", "12.5.6"};
  for (int i = 0; i < 13; i++) {
    char *e1, *e2;
    double d = strtod(fl[i], &e1);
    float f = strtof(fl[i], &e2);
    printf("strtod(\"%s\") = %.17g +%d, strtof = %.9g +%d, atof = %g\n", fl[i], d, (int)(e1 - fl[i]), f, (int)(e2 - fl[i]), atof(fl[i]));
  }
  return 0;
}
