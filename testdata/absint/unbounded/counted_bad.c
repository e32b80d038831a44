// N threads increment a counter without a lock: with two threads it
// passes 1.
#include <pthread.h>
extern void reach_error(void);
#ifndef N
#define N 100000
#endif
int c;
void *thr(void *arg) {
  int v = c;
  c = v + 1;
  if (c > 1)
    reach_error();
  return 0;
}
int main(void) {
  for (int i = 0; i < N; i++) {
    pthread_t t;
    pthread_create(&t, 0, thr, 0);
  }
  return 0;
}
