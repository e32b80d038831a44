// main(int argc, char **argv) (as many SV-COMP tasks declare it) with a
// thread and a bug behind one 32-bit input in 2^32: explicit search
// refuses the input, simulation misses the value, BMC finds it, with argc
// and argv as the vm passes them.
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "argv_threads.c", 7, "reach_error"); }
extern unsigned int __VERIFIER_nondet_uint(void);
unsigned int x;
void *triple(void *arg) {
  x = x * 3u;
  return 0;
}
int main(int argc, char **argv) {
  pthread_t t;
  x = __VERIFIER_nondet_uint();
  pthread_create(&t, 0, triple, 0);
  pthread_join(t, 0);
  if (x == 1u && argc == 1 && argv[1] == 0) {
    reach_error();
  }
  return 0;
}
