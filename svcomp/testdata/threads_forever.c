// Threads created forever: each takes a new nonzero seed below 100 from a
// shared one by compare-and-swap and checks that the value it returns,
// min(seed, 10), is at most 10. TRUE for any number of threads (the vm's
// process limit is no error of the program): abstract interpretation
// proves it, with signed ranges across 0.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void abort(void);
int seed = 1;
void __VERIFIER_atomic_cas(int *v, int e, int u, int *r) {
  if (*v == e) {
    *v = u;
    *r = 1;
  } else {
    *r = 0;
  }
}
int next(void) {
  int old, nw, ok;
  while (1) {
    old = seed;
    nw = __VERIFIER_nondet_int();
    if (nw == old || nw == 0 || nw >= 100)
      continue;
    __VERIFIER_atomic_cas(&seed, old, nw, &ok);
    if (ok == 1)
      return (10 >= nw) ? nw : 10;
  }
}
void *thr(void *arg) {
  if (next() > 10)
    reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, thr, 0);
}
