/* Threads (encoder test, wait-loop reduction): the child waits in
 * `while (!ready) pthread_cond_wait(&c, &m)`, then reads the data main
 * published under the mutex before raising ready. Safe under every
 * schedule; with spurious wakeups the wait loop has no bound, so only the
 * wait-loop reduction (symbolic/encode_wait.go) lets the partial-order
 * check prove it. */
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
  data = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
