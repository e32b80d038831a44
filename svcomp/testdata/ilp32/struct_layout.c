// Issue #35: {char; long; double} is 16 bytes on i386 (double aligned to 4 in structs).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

struct s { char c; long l; double d; };
int main(void) {
  if (sizeof(struct s) != 16) reach_error();
  return 0;
}
