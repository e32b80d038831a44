/* Threads (encoder test, critical sections as blocks): mt_blk_two_ok.c
 * with t1 incrementing y holding a but not b, while t2 holds b: no lock in
 * common, an update may be lost. A violation. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *t1(void *arg) {
  pthread_mutex_lock(&a);
  x = x + 1;
  pthread_mutex_lock(&b);
  x = x + 1;
  pthread_mutex_unlock(&b);
  y = y + 1;
  pthread_mutex_unlock(&a);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&b);
  y = y + 1;
  pthread_mutex_unlock(&b);
  pthread_mutex_lock(&a);
  x = x + 1;
  pthread_mutex_unlock(&a);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  assert(x == 3 && y == 2);
  return 0;
}
