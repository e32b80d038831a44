/* sprintf, snprintf (truncation, size 0), fprintf to stdout and stderr,
   fputs/fputc/putc/fwrite/fflush, and sscanf's common conversions. */
#include <stdio.h>
#include <string.h>

int main(void) {
  char buf[64];
  int n = sprintf(buf, "%d-%05.1f-%s-%c-%x", -42, 3.14159, "abc", 'z', 255u);
  printf("sprintf %d [%s]\n", n, buf);
  n = snprintf(buf, 8, "%s", "0123456789");
  printf("snprintf %d [%s]\n", n, buf);
  n = snprintf(buf, 0, "%d", 123456);
  printf("snprintf0 %d\n", n);
  n = snprintf(buf, sizeof buf, "%-6s|%6s|%+d", "ab", "cd", 5);
  printf("snprintf %d [%s]\n", n, buf);
  n = fprintf(stdout, "fprintf %d %s\n", 7, "ok");
  printf("fprintf returned %d\n", n);
  fprintf(stderr, "this goes to stderr\n");
  fputs("fputs line\n", stdout);
  fputc('A', stdout);
  putc('B', stdout);
  fputc('\n', stdout);
  fwrite("fwrite!\n", 1, 8, stdout);
  printf("fwrite %zu\n", fwrite("xy", 2, 1, stdout));
  fflush(stdout);
  printf("\n");

  int a, b, c; unsigned u; long l; unsigned long ul; long long ll;
  char s1[16], s2[16], ch, cc[3];
  double d; float f; short h; unsigned char hh;
  n = sscanf("  12 -0x1F 077 4000000000", "%d %i %i %u", &a, &b, &c, &u);
  printf("1: n=%d %d %d %d %u\n", n, a, b, c, u);
  n = sscanf("hello world!", "%s %5s", s1, s2);
  printf("2: n=%d [%s] [%s]\n", n, s1, s2);
  n = sscanf("x=3.25,y=-1e3", "x=%lf,y=%f", &d, &f);
  printf("3: n=%d %g %g\n", n, d, f);
  n = sscanf("-9223372036854775808 18446744073709551615 123456789012", "%ld %lu %lld", &l, &ul, &ll);
  printf("4: n=%d %ld %lu %lld\n", n, l, ul, ll);
  n = sscanf("abc", "%d", &a);
  printf("5: n=%d\n", n);
  n = sscanf("", "%d", &a);
  printf("6: n=%d\n", n);
  n = sscanf("   ", "%d", &a);
  printf("7: n=%d\n", n);
  n = sscanf("12345678", "%3d%2d%d", &a, &b, &c);
  printf("8: n=%d %d %d %d\n", n, a, b, c);
  n = sscanf("k:v", "%c:%c", &ch, &cc[0]);
  printf("9: n=%d %c %c\n", n, ch, cc[0]);
  n = sscanf("ab12cd", "%[a-z]%n%d%n", s1, &a, &b, &c);
  printf("10: n=%d [%s] %d %d %d\n", n, s1, a, b, c);
  n = sscanf("ff 70000 300", "%x %hd %hhu", &u, &h, &hh);
  printf("11: n=%d %u %d %u\n", n, u, h, hh);
  n = sscanf("7 skip 8", "%d %*s %d", &a, &b);
  printf("12: n=%d %d %d\n", n, a, b);
  n = sscanf("50%", "%d%%", &a);
  printf("13: n=%d %d\n", n, a);
  n = sscanf("1,2", "%d;%d", &a, &b);
  printf("14: n=%d %d\n", n, a);
  n = sscanf("word rest", "%[^ ] %s", s1, s2);
  printf("15: n=%d [%s] [%s]\n", n, s1, s2);
  n = sscanf("inf -2.5e-3 .5", "%lf %lf %lf", &d, &d, &d);
  printf("16: n=%d %g\n", n, d);
  return 0;
}
