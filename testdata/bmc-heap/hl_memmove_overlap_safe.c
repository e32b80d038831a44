/* Safe (memmove of overlapping ranges): a 6-byte heap buffer "abcdef" is
 * shifted right by one within itself for a nondet length n <= 5; memmove
 * copies as if through a buffer. No loops but the copy: unwind 1.
 * Exhaustive natively over the 8-bit n. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 5);
  char *b = malloc(6);
  if (!b)
    return 1;
  memcpy(b, "abcdef", 6);
  memmove(b + 1, b, n);
  assert(b[0] == 'a');
  assert(n == 0 || b[n] == 'a' + n - 1);
  assert(n == 5 || b[n + 1] == 'a' + n + 1);
  free(b);
  return 0;
}
