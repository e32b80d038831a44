/* Threads (encoder test, critical sections as blocks): an error inside a
 * section (a division by the shared divisor t2 may have set to 0 first)
 * ends the path inside the block. A violation. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int d = 2, r;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  int k = d;
  r = 10 / k;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m);
  d = d - 2;
  d = d + 1;
  d = d - 1;
  pthread_mutex_unlock(&m);
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
