/* Bug (strncmp): two buffers of 3 equal chars without a terminator
 * compared for up to n <= 5 bytes: past their ends when n > 3. */
#include <stdlib.h>
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(4)
#endif

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n <= 5);
  char *s = malloc(3), *t = malloc(3);
  if (!s || !t)
    return 1;
  s[0] = s[1] = s[2] = 'q';
  t[0] = t[1] = t[2] = 'q';
  int r = strncmp(s, t, n);
  free(s);
  free(t);
  return r;
}
