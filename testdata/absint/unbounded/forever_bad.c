// forever_safe.c's twin: the seed is 11 at first, which a thread that
// reads it before any store checks.
#include <pthread.h>
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
int seed = 11;
void *thr(void *arg) {
  if (seed > 10)
    reach_error();
  int x = __VERIFIER_nondet_char();
  seed = x > 10 ? 10 : x;
  return 0;
}
int main(void) {
#ifdef N
  for (int i = 0; i < N; i++) {
#else
  while (1) {
#endif
    pthread_t t;
    pthread_create(&t, 0, thr, 0);
  }
  return 0;
}
