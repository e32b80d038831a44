/* Safe (strlen): a heap string of n <= 5 copies of a nondet non-zero char is
 * built and terminated; strlen returns n. Loops run at most 5 times: unwind
 * 5. Exhaustive natively over the 8-bit inputs. */
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
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 5);
  char *s = malloc(6);
  if (!s)
    return 1;
  UNWIND_DECL(a)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 5);
    s[i] = 'a' + i;
  }
  s[n] = 0;
  assert(strlen(s) == n);
  free(s);
  return 0;
}
