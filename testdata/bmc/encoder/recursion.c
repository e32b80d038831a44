// Recursion of depth n, with reach_error defined by the program.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "recursion.c", 4, "reach_error"); }
static unsigned int sum(unsigned int n) {
  if (n == 0)
    return 0;
  return n + sum(n - 1);
}
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 3);
  if (sum(n) == 6)
    reach_error();
  return 0;
}
