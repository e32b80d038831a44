/* Bug (shift >= width): the shift amount is reduced modulo 40 instead of 32,
 * so amounts 32..39 shift a 32-bit value by at least its width (ShiftOverflow
 * in the vm, undefined in C). */
extern unsigned char __VERIFIER_nondet_uchar(void);

#ifdef WITNESS
WITNESS_INPUTS(35)
#endif

int main(void) {
  unsigned s = __VERIFIER_nondet_uchar() % 40u;
  unsigned r = 1u << s;
  return r == 0;
}
