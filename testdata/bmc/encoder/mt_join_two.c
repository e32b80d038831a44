/* Threads (encoder test): main and T2 both join T1. Whichever joins second
 * fails (PthreadMisuse), so main never gets past both joins with x set:
 * the assertion is unreachable. Before 2026-11-29 the round-robin encoding
 * let both joins succeed, and the assertion's model did not replay (an
 * internal error). The partial-order encoding refuses joins outside main.
 * Explicit search: Error(PthreadMisuse) reachable, Error(AssertFail) not. */
#include <assert.h>
#include <pthread.h>

int x;
pthread_t p1;
void *t1(void *a) { return 0; }
void *t2(void *a) {
  pthread_join(p1, 0);
  x = 1;
  return 0;
}

int main(void) {
  pthread_t p2;
  pthread_create(&p1, 0, t1, 0);
  pthread_create(&p2, 0, t2, 0);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  assert(x == 0);
  return 0;
}
