/* Threads (encoder test, critical sections as blocks): two mutexes, one
 * section nested in the other; x is protected by a, y by b. Safe. */
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
  y = y + 1;
  pthread_mutex_unlock(&b);
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
