/* Bug (out of bounds in strlen): a 4-byte heap buffer is filled with
 * non-zero chars when the flag is set and never terminated; strlen reads
 * past its end. */
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(1)
#endif

int main(void) {
  char *s = malloc(4);
  if (!s)
    return 1;
  unsigned char full = __VERIFIER_nondet_uchar();
  for (int i = 0; i < 3; i++)
    s[i] = 'x';
  s[3] = full ? 'y' : 0; /* BUG: no terminator when full */
  size_t n = strlen(s);
  free(s);
  return (int)n;
}
