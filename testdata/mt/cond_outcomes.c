/* The outcomes of pthread_cond_signal, pthread_cond_broadcast and
 * pthread_cond_wait that POSIX allows, for explicit/TestCondOutcomes. Two
 * threads wait on one condition variable and record, by order of arrival
 * (rank 1 or 2), that their wait returned; once both wait, main sets
 * signalled and wakes them (signal, or broadcast with -DBROADCAST), then
 * joins both. A signal wakes one waiter, either one; a broadcast both; a
 * spurious wakeup returns a wait without either, so before signalled. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int arrived, signalled, got1, got2;

void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  int me = ++arrived;
  pthread_cond_wait(&c, &m);
  if (me == 1)
    got1 = 1;
  else
    got2 = 1;
  pthread_mutex_unlock(&m);
  return arg;
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
  signalled = 1;
#ifdef BROADCAST
  pthread_cond_broadcast(&c);
#else
  pthread_cond_signal(&c);
#endif
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
