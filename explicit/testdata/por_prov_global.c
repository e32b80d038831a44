/* por_prov_global.c -- por_alloca_order.c with each address passed through
 * a global pointer before its conversion: the later-created thread's stack
 * block may get the lower id, so reach_error is reachable. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

int *pa, *pb;
uintptr_t ua, ub;

void *ta(void *x) {
  int a = 1;
  pa = &a;
  ua = (uintptr_t)pa;
  return 0;
}

void *tb(void *x) {
  int b = 2;
  pb = &b;
  ub = (uintptr_t)pb;
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
