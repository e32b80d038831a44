/* Threads (encoder test, critical sections as blocks): mt_blk_cond_ok.c
 * with the data stored in a second section after the signal: the consumer
 * may read it before. A violation. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready, data;

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready)
    pthread_cond_wait(&c, &m);
  int v = data;
  pthread_mutex_unlock(&m);
  assert(v == 42);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, consumer, 0);
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
