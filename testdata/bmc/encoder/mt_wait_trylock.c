/* Threads (encoder test, wait-loop reduction): mt_wait_ok.c with main
 * taking the mutex by pthread_mutex_trylock. Safe, but the reduction's
 * argument needs a mutex used only by lock, unlock and wait (a trylock
 * could tell whether the waiter holds it), so the partial-order check
 * refuses the proof: incomplete. */
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
  if (pthread_mutex_trylock(&m) == 0) {
    data = 42;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  } else {
    pthread_mutex_lock(&m);
    data = 42;
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  }
  pthread_join(t, 0);
  return 0;
}
