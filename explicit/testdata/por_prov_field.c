/* por_prov_field.c -- por_alloca_order.c with each address stored in a
 * field of a local struct and converted from there: the later-created
 * thread's stack block may get the lower id, so reach_error is reachable. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

struct holder {
  int tag;
  int *p;
};

uintptr_t ua, ub;

void *ta(void *x) {
  int a = 1;
  struct holder h;
  h.tag = 0;
  h.p = &a;
  ua = (uintptr_t)h.p;
  return 0;
}

void *tb(void *x) {
  int b = 2;
  struct holder h;
  h.tag = 1;
  h.p = &b;
  ub = (uintptr_t)h.p;
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
