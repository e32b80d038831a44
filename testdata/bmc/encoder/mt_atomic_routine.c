/* Threads (encoder test): a thread whose start routine is itself a
 * __VERIFIER_atomic_ function runs it inside its section (the vm counts it
 * from the thread's first frame), so main never sees x == 1: safe. Until
 * 2026-11-28 the threaded encodings started such a thread outside any
 * section, and the model of a violation did not replay: an internal
 * error instead of a proof. */
#include <assert.h>
#include <pthread.h>

int x;

void *__VERIFIER_atomic_child(void *arg) {
  x = 1;
  x = 0;
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, __VERIFIER_atomic_child, 0);
  assert(x == 0);
  pthread_join(t, 0);
  return 0;
}
