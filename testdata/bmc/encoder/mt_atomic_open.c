/* Threads (encoder test, partial order): main's atomic section with a
 * thread running. x is 1 only inside the section, so the child never sees
 * it: safe. Until 2026-11-28 the partial-order encoding let the child run
 * after main's last executed event when the cut clock stopped main inside
 * the section, and the model (main stopped after x = 1) did not replay: an
 * internal error instead of a proof. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x;

void *child(void *arg) {
  assert(x == 0);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, child, 0);
  __VERIFIER_atomic_begin();
  x = 1;
  x = 0;
  __VERIFIER_atomic_end();
  pthread_join(t, 0);
  return 0;
}
