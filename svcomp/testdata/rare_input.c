// A bug behind one input value in 2^32: simulation misses it, explicit
// search refuses the 32-bit input, BMC finds it.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "rare_input.c", 5, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  if (x * 3u == 1u) {
    reach_error();
  }
  return 0;
}
