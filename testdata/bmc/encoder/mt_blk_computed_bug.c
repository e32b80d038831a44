/* Threads (encoder test, critical sections as blocks): mt_blk_farindex_bug.c
 * with the index computed from small constants: y[k] is x in LP64 (it
 * depends on the vm's layout of the globals), so main may see x == 1
 * inside t1's critical section. A violation. The lockset analysis takes
 * such an index to stay in y (its documented gap); the encoder meets the
 * access of x at a concrete address the analysis left out and refuses the
 * proof (incomplete). It once answered not-satisfied. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  x = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int *p = &y;
  long k = 1;
  k = k << 30;
  k = 0 - k;
  k = k - 1024;
  pthread_create(&t, 0, t1, 0);
  assert(p[k] == 0);
  return 0;
}
