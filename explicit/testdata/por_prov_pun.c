/* por_prov_pun.c -- a type pun: each thread reads the bytes of a pointer
 * to a local variable as an integer through a cast of the pointer's
 * address (*(uintptr_t *)&p, no ptrtoint). reach_error (a above b) is
 * reachable under every reduction. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

uintptr_t ua, ub;

void *ta(void *x) {
  int a;
  int *volatile p = &a;
  ua = *(volatile uintptr_t *)&p;
  return 0;
}

void *tb(void *x) {
  int b;
  int *volatile p = &b;
  ub = *(volatile uintptr_t *)&p;
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
