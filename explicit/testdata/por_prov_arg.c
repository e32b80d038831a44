/* por_prov_arg.c -- each of two threads passes the address of its local
 * variable to a thread of its own as pthread_create's argument, and that
 * thread converts its argument ((uintptr_t)arg, as thread functions convert
 * integer arguments). The later-created thread's stack block may get the
 * lower id, so reach_error is reachable. */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

uintptr_t ua, ub;

void *conva(void *arg) {
  ua = (uintptr_t)arg;
  return 0;
}

void *convb(void *arg) {
  ub = (uintptr_t)arg;
  return 0;
}

void *ta(void *x) {
  int a = 1;
  pthread_t t;
  pthread_create(&t, 0, conva, &a);
  pthread_join(t, 0);
  return 0;
}

void *tb(void *x) {
  int b = 2;
  pthread_t t;
  pthread_create(&t, 0, convb, &b);
  pthread_join(t, 0);
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
