/* Bug (out of bounds in memcpy): the length is checked against the source's
 * size, not the destination's; lengths 9..12 write past dst[8]. */
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(12)
#endif

int main(void) {
  char src[12] = "hello world";
  char dst[8];
  unsigned char n = __VERIFIER_nondet_uchar();
  if (n <= sizeof src)
    memcpy(dst, src, n);
  return dst[0];
}
