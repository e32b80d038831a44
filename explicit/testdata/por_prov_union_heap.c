/* por_prov_union_heap.c -- as por_prov_union.c, the union in a heap block:
 * each thread stores the address of a local variable into a malloc'd
 * union's pointer member and reads it back as an integer (no ptrtoint).
 * reach_error (a above b) is reachable under every reduction. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

void reach_error(void) { assert(0); }

union pun {
  int *p;
  uintptr_t n;
};

uintptr_t ua, ub;

void *ta(void *x) {
  int a;
  union pun *v = malloc(sizeof *v);
  v->p = &a;
  ua = v->n;
  free(v);
  return 0;
}

void *tb(void *x) {
  int b;
  union pun *v = malloc(sizeof *v);
  v->p = &b;
  ub = v->n;
  free(v);
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
