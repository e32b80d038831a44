/* Threads (encoder test, critical sections as blocks): mt_blk_flag_ok.c
 * with t1 storing x = 2 in a second section: t2 may take the mutex
 * between them and read 1. A violation. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, flag;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  flag = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  if (flag) {
    pthread_mutex_lock(&m);
    int v = x;
    pthread_mutex_unlock(&m);
    assert(v == 2);
  }
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
