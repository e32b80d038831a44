// expect: proved
// A loop that needs widening (a counter up to a threshold) and an array
// indexed by a nondeterministic value refined by a branch.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int a[100];
int main(void) {
  for (int i = 0; i < 100; i++)
    a[i] = i * 2;
  int x = __VERIFIER_nondet_uchar();
  if (x >= 0 && x < 100) {
    if (a[x] < 0 || a[x] > 198)
      reach_error();
  }
  return 0;
}
