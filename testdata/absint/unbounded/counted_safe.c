// N threads (100000 unless -DN= says otherwise) each set a flag under a
// mutex and read it back (0 or 1, the flow-insensitive cell): safe for
// any number of threads.
#include <pthread.h>
extern void reach_error(void);
#ifndef N
#define N 100000
#endif
pthread_mutex_t m;
int c;
void *thr(void *arg) {
  pthread_mutex_lock(&m);
  c = 1;
  int v = c;
  pthread_mutex_unlock(&m);
  if (v > 1)
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
