/* Bug (bitvector trap, unsigned wrap): the overflow test `x + 1 < x` holds for
 * exactly one input, x == UINT_MAX, where x + 1 wraps to 0. One value in 2^32:
 * random simulation practically never draws it. */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(0xffffffffLL)
#endif

int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  unsigned y = x + 1u;
  if (y < x)
    reach_error();
  return 0;
}
