// A pointer converted to a 32-bit unsigned long and back designates the same object.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

int main(void) {
  int a[4];
  unsigned long base = (unsigned long)a;
  if (sizeof base != sizeof(int *)) reach_error();
  for (int i = 0; i < 4; i++) *(int *)(base + i * sizeof(int)) = i;
  if (a[3] != 3 || (unsigned long)&a[2] - base != 8) reach_error();
  return 0;
}
