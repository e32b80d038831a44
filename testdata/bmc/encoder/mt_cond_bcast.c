/* Threads (encoder test): mt_cond_wake.c with a broadcast: main is woken. */
#include <assert.h>
#include <pthread.h>

#ifndef WAKE
#define WAKE pthread_cond_broadcast(&c)
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
pthread_cond_t other = PTHREAD_COND_INITIALIZER;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  WAKE;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t1, 0);
  pthread_mutex_lock(&m);
  pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  assert(0);
  return 0;
}
