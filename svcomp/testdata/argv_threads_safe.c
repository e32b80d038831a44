// main(int argc, char **argv) with a thread and a 32-bit input: 6x is even
// mod 2^32, so reach_error is unreachable. Explicit search refuses the
// input; BMC's partial-order check proves it (every interleaving, the loop
// free program complete at unwind 1).
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "argv_threads_safe.c", 7, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);
unsigned int x, y;
void *times6(void *arg) {
  y = x * 6u;
  return 0;
}
int main(int argc, char **argv) {
  pthread_t t;
  x = __VERIFIER_nondet_uint();
  pthread_create(&t, 0, times6, 0);
  pthread_join(t, 0);
  if (y % 2u == 1u || argc != 1) {
    reach_error();
  }
  return 0;
}
