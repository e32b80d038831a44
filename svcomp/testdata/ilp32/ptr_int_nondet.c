// A nondeterministic element's address computed as a 32-bit integer, stored as a pointer and loaded back designates that element.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[4] = {0, 0, 0, 0};
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 3) return 0;
  unsigned long u = (unsigned long)a + i * sizeof(int);
  int *ps[1];
  ps[0] = (int *)u;
  *ps[0] = 7;
  if (a[i] != 7 || *ps[0] != 7 || ps[0] - a != i) reach_error();
  return 0;
}
