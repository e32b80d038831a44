// Two threads add the shared counters in atomic sections, as SV-COMP's
// fib_bench does (written anew for the dead-register tests, dead_test.go):
// each thread's registers keep the values it last loaded, main's the value
// it compared. BOUND is the largest value i or j can reach (FIB(2*N+2)),
// here compared with >=, so the error is reachable (dead_fib.c: >, unreachable).
extern void __VERIFIER_atomic_begin();
extern void __VERIFIER_atomic_end();
extern void __VERIFIER_error(void);
#include <pthread.h>
#define N 3
#define BOUND 21
int i = 1, j = 1;
void *t1(void *arg) {
  for (int k = 0; k < N; k++) {
    __VERIFIER_atomic_begin();
    i += j;
    __VERIFIER_atomic_end();
  }
  pthread_exit(NULL);
}
void *t2(void *arg) {
  for (int k = 0; k < N; k++) {
    __VERIFIER_atomic_begin();
    j += i;
    __VERIFIER_atomic_end();
  }
  pthread_exit(NULL);
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  __VERIFIER_atomic_begin();
  int ci = i >= BOUND;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int cj = j >= BOUND;
  __VERIFIER_atomic_end();
  if (ci || cj)
    __VERIFIER_error();
  return 0;
}
