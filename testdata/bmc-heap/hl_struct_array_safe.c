/* Safe (array of structs): n <= 4 records are filled and summed field by
 * field; the sums match the closed forms. Loops run at most 4 times: unwind
 * 4. Exhaustive natively over the 8-bit n. */
#include <assert.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
void __VERIFIER_assume(int cond);

#ifndef BMC_HARNESS
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k)
#endif

struct rec {
  char tag;
  int a;
  long b;
};

int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(n >= 1 && n <= 4);
  struct rec *rs = malloc(n * sizeof *rs);
  if (!rs)
    return 1;
  UNWIND_DECL(u)
  UNWIND_DECL(v)
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(u, 4);
    rs[i].tag = 'a' + i;
    rs[i].a = i;
    rs[i].b = 2L * i;
  }
  long sa = 0, sb = 0;
  for (int i = 0; i < n; i++) {
    UNWIND_CHECK(v, 4);
    assert(rs[i].tag == 'a' + i);
    sa += rs[i].a;
    sb += rs[i].b;
  }
  assert(sb == 2 * sa && sa == n * (n - 1) / 2);
  free(rs);
  return 0;
}
