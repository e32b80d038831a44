/* por_prov_union_global.c -- as por_prov_union.c, the union a global:
 * each thread stores the address of a local variable into a global union's
 * pointer member and reads it back as an integer (no ptrtoint). Either
 * thread may allocate first, so either block may get the lower id:
 * reach_error is reachable under every reduction. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

union pun {
  int *p;
  uintptr_t n;
};

union pun ga, gb;
uintptr_t ua, ub;

void *ta(void *x) {
  int a;
  ga.p = &a;
  ua = ga.n;
  return 0;
}

void *tb(void *x) {
  int b;
  gb.p = &b;
  ub = gb.n;
  return 0;
}

int main(void) {
  pthread_t y, z;
  pthread_create(&y, 0, ta, 0);
  pthread_create(&z, 0, tb, 0);
  pthread_join(y, 0);
  pthread_join(z, 0);
  if (ua > ub)
    reach_error();
  return 0;
}
