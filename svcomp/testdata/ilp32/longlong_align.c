// long long is aligned to 4 in i386 structs: {char; long long} is 12 bytes, the field at offset 4.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

struct s { char c; long long x; };
int main(void) {
  struct s v;
  if (sizeof(struct s) != 12) reach_error();
  if ((char *)&v.x - (char *)&v != 4) reach_error();
  return 0;
}
