/* Safe (growable vector): n <= 4 values are pushed into a vector that
 * doubles its capacity with realloc (1, 2, 4); the contents survive every
 * move. Loops run at most 4 times: unwind 4. Exhaustive natively over the
 * 8-bit n. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 4);
  int cap = 1, len = 0;
  int *v = malloc(cap * sizeof *v);
  if (!v)
    return 1;
  UNWIND_DECL(a)
  UNWIND_DECL(b)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(a, 4);
    if (len == cap) {
      cap *= 2;
      int *w = realloc(v, cap * sizeof *w);
      if (!w) {
        free(v);
        return 1;
      }
      v = w;
    }
    v[len++] = 10 + i;
  }
  for (int i = 0; i < len; i++) {
    UNWIND_CHECK(b, 4);
    assert(v[i] == 10 + i);
  }
  free(v);
  return 0;
}
