/* Bug (strcmp): two heap strings of n, m <= 2 nondet chars; the program
 * asserts that strings of the same length compare equal, which fails when a
 * char differs. Unwind 2. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(1, 'y')
#endif

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n >= 1 && n <= 2);
  char *s = malloc(3), *t = malloc(3);
  if (!s || !t)
    return 1;
  UNWIND_DECL(a)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 2);
    s[i] = 'x';
    t[i] = (char)__VERIFIER_nondet_uchar();
    __VERIFIER_assume(t[i] != 0);
  }
  s[n] = t[n] = 0;
  assert(strcmp(s, t) == 0);
  free(s);
  free(t);
  return 0;
}
