/* Threads (encoder test, critical sections as blocks): t1 sets both
 * variables in one section, t2 compares them in its own, the violation
 * inside the section. Safe. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  y = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m);
  if (x != y)
    assert(0);
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
