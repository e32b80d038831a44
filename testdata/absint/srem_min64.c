// expect: unsafe
// x % y with y in [INT64_MIN, -3]: |INT64_MIN| overflows in the remainder's
// bound, which must still admit 5 % INT64_MIN = 5.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  long long x = 5;
  long long y = -3;
  if (__VERIFIER_nondet_uchar() & 1)
    y = (long long)0x8000000000000000ULL;
  if (x % y == 5)
    reach_error();
  return 0;
}
