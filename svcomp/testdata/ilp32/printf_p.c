// printf %p of a 32-bit pointer prints 0x and at most 8 hex digits.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

extern int printf(const char *, ...);
int main(void) {
  int x;
  if (printf("%p\n", (void *)&x) > 11) reach_error();
  return 0;
}
