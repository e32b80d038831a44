/* Threads (encoder test, critical sections as blocks): mt_blk_trylock_ok.c
 * with t1 storing y in a second section: t2's trylock may succeed between
 * them. A violation. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  y = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    assert(x == y);
    pthread_mutex_unlock(&m);
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
