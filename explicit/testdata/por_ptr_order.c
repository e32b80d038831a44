/* por_ptr_order.c -- por_alloca_order.c without an integer conversion: a
 * thread orders the addresses of two threads' stack variables (p > q),
 * which compares the blocks' ids. The later-created thread's block may get
 * the lower id: reach_error is reachable. */
#include <assert.h>
#include <pthread.h>

void reach_error(void) { assert(0); }

int *pa, *pb;

void *ta(void *x) {
  int a = 1;
  pa = &a;
  while (!pb)
    ;
  if (pa > pb)
    reach_error();
  return 0;
}

void *tb(void *x) {
  int b = 2;
  pb = &b;
  while (!pa)
    ;
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, ta, 0);
  pthread_create(&y, 0, tb, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
