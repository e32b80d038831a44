// printf %lu of (unsigned long)-1 prints 4294967295 (11 characters with the newline).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

extern int printf(const char *, ...);
int main(void) {
  if (printf("%lu\n", (unsigned long)-1) != 11) reach_error();
  if (printf("%ld\n", (long)-1) != 3) reach_error();
  return 0;
}
