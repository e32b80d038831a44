/* The ctype functions over EOF and every unsigned char: at -O0 clang calls
   glibc's __ctype_b_loc/__ctype_toupper_loc/__ctype_tolower_loc (the
   macros of <ctype.h>), at -O1 it reads their tables inline. Also through
   function pointers (the library functions themselves). */
#include <stdio.h>
#include <ctype.h>

typedef int (*cls)(int);

int main(void) {
  const char *names[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"};
  cls fs[] = {isalnum, isalpha, isblank, iscntrl, isdigit, isgraph, islower, isprint, ispunct, isspace, isupper, isxdigit};
  for (int k = 0; k < 12; k++) {
    unsigned long h = 0; int cnt = 0;
    for (int c = -1; c < 256; c++) {
      int v = fs[k](c) != 0;
      cnt += v;
      h = h * 31 + (unsigned long)(v * (c + 2));
    }
    printf("%-6s %3d %lu\n", names[k], cnt, h);
  }
  int d = 0, a = 0, s = 0, u = 0, l = 0, x = 0, p = 0, n = 0;
  for (int c = -1; c < 256; c++) {
    d += isdigit(c) != 0; a += isalpha(c) != 0; s += isspace(c) != 0; u += isupper(c) != 0;
    l += islower(c) != 0; x += isxdigit(c) != 0; p += ispunct(c) != 0; n += isalnum(c) != 0;
  }
  printf("macros: %d %d %d %d %d %d %d %d\n", d, a, s, u, l, x, p, n);
  for (int c = -1; c < 256; c += 1) {
    int up = toupper(c), lo = tolower(c);
    if (up != c || lo != c) continue;
    if (c >= 'a' && c <= 'z') printf("bad %d\n", c);
  }
  unsigned long t = 0;
  for (int c = -128; c < 256; c++) t = t * 7 + (unsigned long)(toupper(c) + 2 * tolower(c) + 1000);
  printf("case tables %lu\n", t);
  const char *msg = "Hello, World! 123 abc_XYZ\t~";
  for (const char *q = msg; *q; q++) putchar(toupper((unsigned char)*q));
  putchar('\n');
  for (const char *q = msg; *q; q++) putchar(tolower((unsigned char)*q));
  putchar('\n');
  cls up = (cls)toupper;
  printf("%c%c\n", up('q'), ((cls)tolower)('Q'));
  return 0;
}
