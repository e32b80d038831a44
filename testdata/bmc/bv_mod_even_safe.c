/* Safe (bitvector trap, no modular inverse): 6 is even, so x * 6 is even
 * modulo 2^32 and never equals 3; an encoding over mathematical integers
 * would agree, one that forgot the parity argument would not. */
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (x * 6u == 3u)
    reach_error();
  return 0;
}
