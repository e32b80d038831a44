// pthread_t is a 32-bit unsigned long, and a thread's result is a 32-bit pointer that pthread_join stores.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);

int g[2] = {5, 6};
void *f(void *a) { return (int *)a + 1; }

int main(void) {
  pthread_t t[2];
  void *r[2] = {0, 0};
  pthread_create(&t[1], 0, f, g);
  pthread_join(t[1], &r[1]);
  if (sizeof(pthread_t) != 4 || sizeof r != 8 || r[1] != (void *)&g[1] || r[0] != 0) reach_error();
  return 0;
}
