/* Bug (signed overflow under nsw): the midpoint (lo + hi) / 2 of two
 * non-negative ints overflows when lo + hi > INT_MAX (the classic binary
 * search bug). About one admitted random input pair in four does it. */
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assume(int cond);

#ifdef WITNESS
WITNESS_INPUTS(1500000000, 2000000000)
#endif

int main(void) {
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= lo && lo <= hi);
  int mid = (lo + hi) / 2;
  return mid & 1;
}
