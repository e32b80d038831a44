// A null pointer dereferenced when the input is even.
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  if (__VERIFIER_nondet_int() % 2 == 0) {
    free(p);
    p = 0;
  }
  if (p) {
    *p = 1;
    free(p);
    return 0;
  }
  return *p;
}
