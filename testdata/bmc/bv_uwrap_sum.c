/* Bug (bitvector trap, unsigned wrap): the sum of two positive unsigned
 * lengths is checked against a limit, but a + b can wrap around and pass the
 * check while a alone exceeds it. Only the about 100 * 2^32 wrapping pairs
 * (2^-25 of all pairs) do it: random simulation misses it. */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(0xfffffff0LL, 0x20)
#endif

int main(void) {
  unsigned a = __VERIFIER_nondet_uint();
  unsigned b = __VERIFIER_nondet_uint();
  if (a + b <= 100u) {
    if (a > 100u)
      reach_error();
  }
  return 0;
}
