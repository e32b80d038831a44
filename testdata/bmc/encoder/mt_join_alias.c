/* Threads (encoder test): main joins T1 twice, through two copies of its
 * pthread_t. The vm's second join fails (PthreadMisuse: the thread was
 * joined already), so the assertion after it is unreachable. Before
 * 2026-11-29 both encodings let the second join succeed: the assertion's
 * model did not replay (an internal error), and the partial-order check
 * proved E<> Error(PthreadMisuse) not-satisfied, wrongly. Explicit search:
 * Error(PthreadMisuse) reachable, Error(AssertFail) not. */
#include <assert.h>
#include <pthread.h>

int x;
void *t(void *a) { x = 1; return 0; }

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t, 0);
  q = p;
  pthread_join(p, 0);
  pthread_join(q, 0);
  assert(x == 0);
  return 0;
}
