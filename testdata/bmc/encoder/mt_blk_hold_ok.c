/* Threads (encoder test, critical sections as blocks): t1 returns holding
 * the mutex (its section ends with the thread); t2 then blocks for good.
 * Safe. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  x = 0;
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m);
  assert(x == 0);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  return 0;
}
