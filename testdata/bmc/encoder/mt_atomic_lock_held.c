/* Threads (encoder test): main's atomic section locks m, which T1 may
 * hold. The vm then runs T1 while main is blocked inside its section
 * (vm.Machine.EnabledThreads), and T1 sees main's y = 1. Reachable
 * (explicit search: Error(AssertFail) satisfied); the round-robin encoding
 * parks main (symbolic/encode_threads.go, blockOn) and finds it. */
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int y;

void *t(void *a) {
  pthread_mutex_lock(&m);
  assert(y == 0);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t, 0);
  __VERIFIER_atomic_begin();
  y = 1;
  pthread_mutex_lock(&m);
  y = 0;
  pthread_mutex_unlock(&m);
  __VERIFIER_atomic_end();
  return 0;
}
