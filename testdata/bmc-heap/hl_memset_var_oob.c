/* Bug (out of bounds in memset): the length is checked against 9 instead
 * of the 8-byte heap buffer's size. */
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(9)
#endif

int main(void) {
  char *b = malloc(8);
  if (!b)
    return 1;
  unsigned char n = __VERIFIER_nondet_uchar();
  if (n <= 9) /* BUG: 9 bytes do not fit */
    memset(b, 0, n);
  free(b);
  return 0;
}
