// Threads created forever (SV-COMP's pthread-ext form): each computes
// min(x, 10) of a signed x and checks it; the shared seed is only ever 1
// or a value below 11. N (given with -DN=) bounds the threads instead.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void reach_error(void);
int seed = 1;
void *thr(void *arg) {
  int x = __VERIFIER_nondet_bool() * 20 - 5; // -5 or 15
  int r;
  if (10 >= x)
    r = x;
  else
    r = 10;
  seed = r;
  if (seed > 10)
    reach_error();
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
