// expect: unsafe
// A division by a value that may be zero.
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  int x = __VERIFIER_nondet_uchar();
  if (x >= 0 && x < 4)
    return 100 / x;
  return 0;
}
