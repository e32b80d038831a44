/* Bug (bitvector trap, modular inverse): x * 3 == 1 has no solution over the
 * integers but exactly one modulo 2^32, x = 0xAAAAAAAB (3 * 0xAAAAAAAB =
 * 2^33 + 1). Random simulation misses it (1 value in 2^32). */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(0xAAAAAAABLL)
#endif

int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (x * 3u == 1u)
    reach_error();
  return 0;
}
