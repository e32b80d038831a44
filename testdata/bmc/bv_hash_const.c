/* Bug (bitvector trap, hash preimage): an invertible 32-bit mixing function
 * (xor-shift, multiply by an odd constant, twice) of a nondet input equals a
 * constant for exactly one input, 0x1BADB002. Random simulation misses it
 * (1 value in 2^32); a bit-precise solver inverts it. */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(0x1BADB002LL)
#endif

static unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x45d9f3bu;
  x ^= x >> 16;
  x *= 0x45d9f3bu;
  x ^= x >> 16;
  return x;
}

int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (mix(x) == 0xf59e51c4u)
    reach_error();
  return 0;
}
