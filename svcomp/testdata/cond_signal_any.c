// Two threads wait on one condition variable; once both wait, main signals
// once and returns. POSIX leaves unspecified which waiter the signal wakes:
// the second to arrive may be the one, and it reaches the error. A platform
// that always wakes the longest waiter (and never wakes one spuriously)
// never gets there.
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "cond_signal_any.c", 8, "reach_error"); }
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int arrived;
void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  int me = ++arrived;
  pthread_cond_wait(&c, &m);
  if (me == 2)
    reach_error();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, waiter, 0);
  for (;;) {
    pthread_mutex_lock(&m);
    if (arrived == 2)
      break;
    pthread_mutex_unlock(&m);
  }
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return 0;
}
