// Signed overflow, then the error: big + 1 wraps around to INT_MIN (two's
// complement, as SV-COMP's verifiers and the program compiled at -O0 on
// real hardware compute it) and reach_error is called: FALSE(unreach-call).
// The overflow itself is FALSE(no-overflow).
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "overflow_then_error.c", 6, "reach_error"); }
int big = 2147483647;
int main(void) {
  int x = big + 1;
  if (x < 0) {
    reach_error();
  }
  return 0;
}
