/* Bug (use after free): a pointer to the vector's first element is kept
 * while values are pushed; the push that grows the vector moves it (realloc
 * always moves in the vm), and the kept pointer is read. */
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(2)
#endif

int main(void) {
  int cap = 1, len = 0;
  int *v = malloc(cap * sizeof *v);
  if (!v)
    return 1;
  v[len++] = 5;
  int *first = &v[0];
  unsigned char n = __VERIFIER_nondet_uchar() % 3;
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap *= 2;
      int *w = realloc(v, cap * sizeof *w);
      if (!w)
        return 1;
      v = w;
    }
    v[len++] = i;
  }
  int r = *first; /* BUG once the vector grew (n >= 1) */
  free(v);
  return r;
}
