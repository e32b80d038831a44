/* por_prov_ret.c -- por_alloca_order.c with each address returned by a
 * function before its conversion, and chosen by a conditional (a phi): the
 * later-created thread's stack block may get the lower id, so reach_error
 * is reachable. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

uintptr_t ua, ub;

int *pick(int *p, int s) { return s ? p : 0; }

void *ta(void *x) {
  int a;
  ua = (uintptr_t)pick(&a, 1);
  return 0;
}

void *tb(void *x) {
  int b;
  ub = (uintptr_t)pick(&b, 1);
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
