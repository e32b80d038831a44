// valid-memsafety: TRUE
// valid-memcleanup: TRUE
// Bit-field runs of 24 and 48 bits, which clang reads and writes as i24
// and i48: 3 and 6 bytes, so the access of a run at the end of a packed
// struct stays inside it (an access of 4 or 8 bytes, the types' allocation
// sizes, would pass its end), and the char after a 24-bit run keeps its
// value. Each struct lives in the heap, so its end is its block's.
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void reach_error(void) { abort(); }
#pragma pack(push)
#pragma pack(1)
struct p24 { char c; unsigned a : 24; };
struct p48 { unsigned f0 : 18; signed f1 : 24; };
#pragma pack(pop)
struct run24 { unsigned a : 20; unsigned b : 4; char c; };
int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  struct p24 *p = malloc(sizeof *p);
  struct p48 *q = malloc(sizeof *q);
  struct run24 *r = malloc(sizeof *r);
  if (!p || !q || !r) {
    free(p);
    free(q);
    free(r);
    return 0;
  }
  p->c = 'c';
  p->a = n + 1u;
  q->f0 = n;
  q->f1 = -(int)n;
  r->c = 'x';
  r->b = 2;
  r->a = n;
  if (p->c != 'c' || p->a != n + 1u || q->f0 != n || q->f1 != -(int)n || r->c != 'x' || r->b != 2 || r->a != n)
    *(volatile int *)0 = 0;
  free(p);
  free(q);
  free(r);
  return 0;
}
