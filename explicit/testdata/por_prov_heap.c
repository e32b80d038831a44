/* por_prov_heap.c -- heap blocks take their ids from the counter stack
 * blocks use: one thread's local variable (whose address is taken, never
 * converted) and another's malloc race for the next id, and main converts
 * the heap block's address. When the malloc comes first, the two heap
 * blocks' ids are adjacent, so reach_error is reachable. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

void reach_error(void) { assert(0); }

int *shared;
uintptr_t uq, ub;

void use(int *p) { shared = p; }

void *ta(void *x) {
  int a = 1;
  use(&a);
  return 0;
}

void *tb(void *x) {
  ub = (uintptr_t)malloc(4);
  return 0;
}

int main(void) {
  pthread_t x, y;
  uq = (uintptr_t)malloc(4);
  pthread_create(&x, 0, ta, 0);
  pthread_create(&y, 0, tb, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  if (ub - uq < ((uintptr_t)3 << 32))
    reach_error();
  return 0;
}
