// Signed overflow that makes the error unreachable: big + 1 wraps around to
// INT_MIN, never positive, so reach_error is never called: TRUE of
// unreach-call under wrap-around (with the overflow as an error state, no
// engine could prove it). The overflow itself is FALSE(no-overflow).
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "overflow_then_safe.c", 6, "reach_error"); }
int big = 2147483647;
int main(void) {
  int x = big + 1;
  if (x > 0) {
    reach_error();
  }
  return 0;
}
