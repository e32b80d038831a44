// expect: refused
// A callee clamps its caller's local through a pointer: safe, but the
// local's address escapes, so its cell is flow-insensitive and keeps the
// nondeterministic value: a known imprecision (docs/absint.md).
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
void clamp(int *p, int lo, int hi) {
  if (*p < lo) *p = lo;
  if (*p > hi) *p = hi;
}
int main(void) {
  int x = __VERIFIER_nondet_uchar();
  clamp(&x, 0, 9);
  int buf[10];
  buf[x] = 1;
  if (x < 0)
    reach_error();
  return buf[x] - 1;
}
