/* Threads (encoder test): the two reads of mt_back.c under a mutex that T2
 * takes too: safe under any schedule. */
#include <assert.h>
#include <pthread.h>

int x = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  int a = x;
  int b = x;
  pthread_mutex_unlock(&m);
  assert(a == b);
  return 0;
}
void *t2(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
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
