/* por_prov_union.c -- two threads each publish the address of a local
 * variable as an integer read through a union (no ptrtoint: a load of the
 * pointer's bytes as a uintptr_t). Either thread may allocate first, so
 * either block may get the lower id: reach_error (a above b) is reachable.
 * The provenance analysis once saw no conversion here, and the global
 * reduction (with and without --por) answered not-satisfied. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

uintptr_t ua, ub;

union pun {
  int *p;
  uintptr_t n;
};

void *ta(void *x) {
  int a;
  volatile union pun v;
  v.p = &a;
  ua = v.n;
  return 0;
}

void *tb(void *x) {
  int b;
  volatile union pun v;
  v.p = &b;
  ub = v.n;
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
