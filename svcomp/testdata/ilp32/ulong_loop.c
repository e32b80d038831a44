// A loop counting a 32-bit unsigned long down from 2^32 - 1 wraps nowhere: the bound check holds.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  unsigned long x = 4294967295UL;
  int n = 0;
  while (x > 4294967290UL) { x--; n++; }
  if (n != 5 || sizeof x != 4) reach_error();
  return 0;
}
