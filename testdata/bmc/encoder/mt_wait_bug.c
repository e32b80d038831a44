/* Threads (encoder test, wait-loop reduction): as mt_wait_ok.c, but main
 * raises ready in one critical section and publishes the data in a later
 * one: the waiter can leave its wait loop and read data == 0 (the
 * assertion fails). The violation is found through the reduced loop. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;

void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  int v = data;
  pthread_mutex_unlock(&m);
  assert(v == 42);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  data = 42;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
