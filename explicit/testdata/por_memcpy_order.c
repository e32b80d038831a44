/* por_memcpy_order.c -- por_alloca_order.c with the addresses copied into
 * integers by memcpy instead of a conversion: the later-created thread's
 * stack block may get the lower id, so reach_error is reachable. */
#include <assert.h>
#include <pthread.h>
#include <string.h>

void reach_error(void) { assert(0); }

unsigned long ua, ub;

void *ta(void *x) {
  int a = 1;
  int *p = &a;
  memcpy(&ua, &p, sizeof p);
  return 0;
}

void *tb(void *x) {
  int b = 2;
  int *p = &b;
  memcpy(&ub, &p, sizeof p);
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, ta, 0);
  pthread_create(&y, 0, tb, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  if (ua > ub)
    reach_error();
  return 0;
}
