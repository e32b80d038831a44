/* Safe (strcmp, strncmp): two heap strings of n, m <= 3 nondet chars in
 * 'a'..'c'; strcmp's sign agrees with the first difference found by a loop,
 * and strncmp of the common length is 0 exactly when the prefixes agree.
 * Loops run at most 3 times: unwind 3. Exhaustive natively over the inputs. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar(), m = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 3 && m <= 3);
  char *s = malloc(4), *t = malloc(4);
  if (!s || !t)
    return 1;
  UNWIND_DECL(a)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 3);
    unsigned char c = __VERIFIER_nondet_uchar();
    __VERIFIER_assume(c >= 'a' && c <= 'c');
    s[i] = c;
  }
  s[n] = 0;
  UNWIND_DECL(b)
  for (int i = 0; i < m; i++) {
    UNWIND_CHECK(b, 3);
    unsigned char c = __VERIFIER_nondet_uchar();
    __VERIFIER_assume(c >= 'a' && c <= 'c');
    t[i] = c;
  }
  t[m] = 0;
  int want = 0, i = 0;
  UNWIND_DECL(c)
  for (;; i++) {
    UNWIND_CHECK(c, 4);
    if (s[i] != t[i] || s[i] == 0) {
      want = (unsigned char)s[i] - (unsigned char)t[i];
      break;
    }
  }
  int got = strcmp(s, t);
  assert((got < 0) == (want < 0) && (got > 0) == (want > 0));
  int k = n < m ? n : m, same = 1;
  UNWIND_DECL(d)
  for (int j = 0; j < k; j++) {
    UNWIND_CHECK(d, 3);
    if (s[j] != t[j])
      same = 0;
  }
  assert((strncmp(s, t, k) == 0) == same);
  free(s);
  free(t);
  return 0;
}
