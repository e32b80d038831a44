// Pointer fields are 4 bytes: {int *a; int *b; char c;} is 12 bytes with b at offset 4.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

typedef __SIZE_TYPE__ size_t;
struct s { int *a; int *b; char c; };
int main(void) {
  int x = 1, y = 2;
  struct s v = { &x, &y, 3 };
  if (sizeof v != 12 || (size_t)((char *)&v.b - (char *)&v) != 4) reach_error();
  if (*v.a + *v.b != 3) reach_error();
  return 0;
}
