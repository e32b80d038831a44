/* Safe (bitvector trap, sign extension): a char whose unsigned value exceeds
 * 200 has its top bit set, so as a signed char it is negative; the two tests
 * contradict each other. An encoding that zero-extends chars would wrongly
 * reach the error. 8-bit input: the native check is exhaustive. */
extern char __VERIFIER_nondet_char(void);
void reach_error(void);

int main(void) {
  char c = __VERIFIER_nondet_char();
  int s = c;                /* sign-extended */
  unsigned u = (unsigned char)c; /* zero-extended */
  if (u > 200u && s > 0)
    reach_error();
  if (s < 0 && u < 128u)
    reach_error();
  return 0;
}
