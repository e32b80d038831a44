/* Threads (encoder test): main's atomic section locks m, which T1 may
 * hold; T1 clears y before its unlock, and main, resumed inside its
 * section, copies y = 0 to z. Reachable (explicit search: Error
 * satisfied): it needs main to go on after blocking inside its section.
 * Before 2026-11-29 the round-robin encoding stopped main for good there,
 * and --complete (which hands the program to the rounds: the partial-order
 * encoding refuses a lock inside a section) proved E<> Error
 * not-satisfied, wrongly. Now the run ends at T1's unlock and no proof is
 * claimed: incomplete. */
#include <assert.h>
#include <pthread.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int y, z;

void *t(void *a) {
  pthread_mutex_lock(&m);
  y = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t, 0);
  __VERIFIER_atomic_begin();
  y = 1;
  pthread_mutex_lock(&m);
  z = y;
  pthread_mutex_unlock(&m);
  __VERIFIER_atomic_end();
  pthread_join(p, 0);
  assert(z == 1);
  return 0;
}
