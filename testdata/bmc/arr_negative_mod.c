/* Bug (array out of bounds, C remainder sign): i % 8 is negative for negative
 * i (C truncates toward zero), so a[i % 8] reads before the array. Half of the
 * random inputs are negative and 7 in 8 of those are not multiples of 8. */
extern int __VERIFIER_nondet_int(void);

#ifdef WITNESS
WITNESS_INPUTS(-3)
#endif

int main(void) {
  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int i = __VERIFIER_nondet_int();
  return a[i % 8];
}
