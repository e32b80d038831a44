// size_t is 32 bits: 0 - 1 is 4294967295.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

typedef __SIZE_TYPE__ size_t;
int main(void) {
  size_t n = 0;
  n--;
  if (n == 4294967295U) reach_error();
  return 0;
}
