/* por_prov_arg.c -- main and a thread each pass the address of a local
 * variable to a thread of their own as pthread_create's argument, and that
 * thread converts its argument ((uintptr_t)arg, as thread functions convert
 * integer arguments). main's variable lives in a frame it enters after
 * starting the thread, so either block may get the lower id: reach_error
 * (a below b) is reachable. The global reduction without the analysis ran
 * the thread's allocas before main's next step, so b always got the lower
 * id (or, the thread ended, a reused b's). */
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

void *tb(void *x) {
  int b;
  pthread_t t;
  pthread_create(&t, 0, convb, &b);
  pthread_join(t, 0);
  return 0;
}

void sa(void) {
  pthread_t t; /* (before a: when tb has ended, a reuses b's id) */
  int a;
  pthread_create(&t, 0, conva, &a);
  pthread_join(t, 0);
}

int main(void) {
  pthread_t y;
  pthread_create(&y, 0, tb, 0);
  sa();
  pthread_join(y, 0);
  if (ua < ub)
    reach_error();
  return 0;
}
