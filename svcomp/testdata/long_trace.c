// A bug at the end of a deterministic computation of 306 000 steps: the
// counterexample's JSON (4 MB) is over NATS's default maximum message
// size of 1 MB, and verify answered UNKNOWN while the in-process server
// kept that default.
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "long_trace.c", 6, "reach_error"); }
int fib(int n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}
int main(void) {
  if (fib(20) == 6765)
    reach_error();
  return 0;
}
