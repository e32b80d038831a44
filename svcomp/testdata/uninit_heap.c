// A malloc'd int read before it is written: its value is an input
// (a wrong TRUE of every engine while fresh heap memory read as 0).
#include <stdlib.h>
extern void reach_error(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char *p = malloc(2);
  if (!p)
    return 0;
  p[0] = __VERIFIER_nondet_uchar();
  if (p[1] == 42)
    reach_error();
  free(p);
  return 0;
}
