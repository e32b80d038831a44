/* Safe (bounded string copy): a string of up to 7 nondet non-zero chars is
 * copied into an 8-byte buffer with an explicit bound, always terminated.
 * Loops run at most 7 times: unwind 7. Inputs: the length in [0, 7] and a
 * fill char; exhaustive natively with the bounds checked. */
#include <assert.h>
#include <string.h>
extern char __VERIFIER_nondet_char(void);
int wyvern_uniform(int lo, int hi);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

int main(void) {
  char src[8], dst[8];
  int len = wyvern_uniform(0, 7);
  char c = __VERIFIER_nondet_char();
  if (c == 0)
    c = 'x';
  UNWIND_DECL(a)
  for (int i = 0; i < len; i++) {
    UNWIND_CHECK(a, 7);
    src[i] = c;
  }
  src[len] = 0;
  int i = 0;
  UNWIND_DECL(b)
  while (i < (int)sizeof dst - 1 && src[i] != 0) {
    UNWIND_CHECK(b, 7);
    dst[i] = src[i];
    i++;
  }
  dst[i] = 0;
  assert(strlen(dst) == (unsigned)len);
  return 0;
}
