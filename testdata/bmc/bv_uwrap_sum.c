/* Bug (bitvector trap, unsigned wrap): the sum of two positive unsigned
 * lengths is checked against a limit, but a + b can wrap around and pass the
 * check while a alone exceeds it. About a quarter of random inputs do it. */
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
