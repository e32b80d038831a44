// expect: unsafe
// Signed overflow: the counter passes INT_MAX.
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  int s = 2147483600;
  int n = __VERIFIER_nondet_uchar();
  if (n > 0 && n < 100)
    s += n;
  return s;
}
