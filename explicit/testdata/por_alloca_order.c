/* por_alloca_order.c -- two threads publish the addresses of their stack
 * variables; main compares them. Block ids come from one counter, so the
 * later-created thread may get the lower id (it allocates first when main
 * creates both before either runs): reach_error is reachable. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

uintptr_t ua, ub;

void *ta(void *x) {
  int a = 1;
  ua = (uintptr_t)&a;
  return 0;
}

void *tb(void *x) {
  int b = 2;
  ub = (uintptr_t)&b;
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
