/* Threads (encoder test): main's atomic section locks m, which T1 may
 * hold. Once T1 unlocks m, the vm runs main alone (it is inside its
 * section and can go on) until the section ends, y back at 0: T1's read
 * after its unlock never sees 1 (explicit search: Error(AssertFail) not
 * reachable). The round-robin encoding parks main at the lock and ends
 * the run at T1's unlock (symbolic/encode_threads.go, blockOn): no model
 * in which T1 goes on past the unlock while main waits (which would not
 * replay), and no proof: incomplete. */
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int y;

void *t(void *a) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  assert(y == 0);
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
  pthread_join(p, 0);
  return 0;
}
