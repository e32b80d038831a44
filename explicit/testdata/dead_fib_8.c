// dead_fib.c with N 8: the benchmark of a fib_bench-like program under the
// global reduction and POR (bench_test.go, "dead_fib_8"), the shape of
// SV-COMP's fib_bench_longest-1 (N 11) in small. Two threads add the shared
// counters in atomic sections; BOUND is FIB(2*N+2), the largest value i or
// j can reach, so the error is unreachable.
extern void __VERIFIER_atomic_begin();
extern void __VERIFIER_atomic_end();
extern void __VERIFIER_error(void);
#include <pthread.h>
#define N 8
#define BOUND 2584
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
  int ci = i > BOUND;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int cj = j > BOUND;
  __VERIFIER_atomic_end();
  if (ci || cj)
    __VERIFIER_error();
  return 0;
}
