// A thread waits on a condition variable once, without a loop, then checks
// the condition it waited for. POSIX lets pthread_cond_wait return without
// a signal (a spurious wakeup): the waiter can reacquire the mutex before
// main sets ready, and reach the error. A platform that wakes a waiter only
// on a signal never gets there.
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "cond_spurious.c", 8, "reach_error"); }
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;
void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  if (!ready)
    pthread_cond_wait(&c, &m);
  if (!ready)
    reach_error();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
