// expect: unsafe
// signed_range.c's twin: min(x, 11) may be 11, which a thread checks
// against 10.
#include <pthread.h>
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int g;
void *worker(void *arg) {
  int v = g;
  if (v > 10)
    reach_error();
  return 0;
}
int main(void) {
  int x = __VERIFIER_nondet_char();
  int r;
  if (11 >= x)
    r = x;
  else
    r = 10;
  g = r;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
