/* Threads (encoder test): the atomic section starts in a helper function
 * and ends in main, so x == 1 stays hidden from the child: safe. Until
 * 2026-11-28 the section ended at the helper's return in the encoding
 * (not in the vm), and the model of a violation did not replay: an
 * internal error instead of a proof. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x;

void enter(void) { __VERIFIER_atomic_begin(); }

void *child(void *arg) {
  assert(x == 0);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, child, 0);
  enter();
  x = 1;
  x = 0;
  __VERIFIER_atomic_end();
  pthread_join(t, 0);
  return 0;
}
