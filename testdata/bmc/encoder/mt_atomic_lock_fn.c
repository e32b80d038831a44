/* Threads (encoder test): mt_atomic_lock_resume.c with the section a
 * __VERIFIER_atomic_ function. Main blocks at the lock inside it while T1
 * holds m, T1 clears y and unlocks, main resumes and copies y = 0 to z.
 * Reachable (explicit search: Error satisfied). Before 2026-11-29
 * --complete proved E<> Error not-satisfied, wrongly; now incomplete. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int y, z;

void *t(void *a) {
  pthread_mutex_lock(&m);
  y = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

void __VERIFIER_atomic_copy(void) {
  y = 1;
  pthread_mutex_lock(&m);
  z = y;
  pthread_mutex_unlock(&m);
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t, 0);
  __VERIFIER_atomic_copy();
  pthread_join(p, 0);
  assert(z == 1);
  return 0;
}
