/* Safe (memcpy of a variable length): n <= 8 bytes of a heap source are
 * copied to an 8-byte heap destination; the copied bytes match, the rest
 * keeps its fill. No loops but the copy: unwind 1. Exhaustive natively over
 * the 8-bit n. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 8);
  char *src = malloc(8), *dst = malloc(8);
  if (!src || !dst)
    return 1;
  memset(src, 'a', 8);
  memset(dst, 'z', 8);
  memcpy(dst, src, n);
  assert(n == 0 || dst[n - 1] == 'a');
  assert(n == 8 || dst[n] == 'z');
  free(src);
  free(dst);
  return 0;
}
