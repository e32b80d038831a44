/* Threads (encoder test): the atomic section ends in a helper function,
 * so main is no longer atomic after it returns and the child can read
 * x == 1: a violation. Until 2026-11-28 the encoder restored the caller's
 * atomic depth at a return, so main stayed atomic: the partial-order
 * encoding refused the join "inside an atomic section" and the
 * round-robin complete check (--complete) answered not-satisfied, wrongly. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x;

void leave(void) { __VERIFIER_atomic_end(); }

void *child(void *arg) {
  assert(x == 0);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, child, 0);
  __VERIFIER_atomic_begin();
  leave();
  x = 1;
  x = 0;
  pthread_join(t, 0);
  return 0;
}
