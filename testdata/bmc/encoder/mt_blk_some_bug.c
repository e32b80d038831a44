/* Threads (encoder test, critical sections as blocks): t1 takes the mutex
 * on some paths only, so x is not protected; the paths join inside what
 * would be a section. A lost update. A violation. */
#include <assert.h>
#include <pthread.h>

extern _Bool __VERIFIER_nondet_bool(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *t1(void *arg) {
  _Bool c = __VERIFIER_nondet_bool();
  if (c)
    pthread_mutex_lock(&m);
  x = x + 1;
  if (c)
    pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  assert(x == 2);
  return 0;
}
