/* Two threads wait on one condition variable (no predicate: a signal sent
 * before a thread waits is lost, and the run deadlocks); main signals twice,
 * each time under the mutex, then joins both. pthread_cond_signal wakes the
 * thread that started waiting first, so two states that differ only in the
 * waiters' order of arrival are different states. Small enough at -O1 (197
 * states) for a thousand random traces to visit every state: the test that
 * EnumStatesSMC and EnumStates count the same states runs it. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;

void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, waiter, 0);
  pthread_create(&b, 0, waiter, (void *)1);
  pthread_mutex_lock(&m);
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
