// malloc(2 * sizeof(long)) is 8 bytes: the byte at offset 8 is out of bounds.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

extern void *malloc(unsigned int);
extern void free(void *);
int main(void) {
  char *p = malloc(2 * sizeof(long));
  if (!p) return 0;
  p[8] = 1;
  free(p);
  return 0;
}
