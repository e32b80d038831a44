/* Safe (bitvector trap, usual arithmetic conversions): in `u > -1` the -1 is
 * converted to unsigned, UINT_MAX, and no unsigned is greater. (int)u is
 * negative exactly when the top bit of u is set, i.e. when u >= 0x80000000,
 * so the second condition is contradictory too. An encoding that compares as
 * mathematical integers would reach the first error. */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

int main(void) {
  unsigned u = __VERIFIER_nondet_uint();
  if (u > -1)
    reach_error();
  if ((int)u < -1 && u < 0x80000000u)
    reach_error();
  return 0;
}
