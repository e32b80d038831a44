// expect: unsafe
// The error is reachable: x can be 5.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_uchar();
  if (x > 3 && x < 7) {
    if (x == 5)
      reach_error();
  }
  return 0;
}
