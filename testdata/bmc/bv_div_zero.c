/* Bug (division by zero): 100 / (c - 7) divides by zero for c == 7, one
 * 8-bit input in 256. */
extern char __VERIFIER_nondet_char(void);

#ifdef WITNESS
WITNESS_INPUTS(7)
#endif

int main(void) {
  char c = __VERIFIER_nondet_char();
  int r = 100 / (c - 7);
  return r;
}
