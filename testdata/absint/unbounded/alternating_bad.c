// Threads created in a loop with arguments 0 and 1 in turn each store
// theirs into a shared global and read it back: two threads interleave.
#include <pthread.h>
extern void reach_error(void);
int g;
void *thr(void *p) {
  int v = (int)(long)p;
  g = v;
  if (g != v)
    reach_error();
  return 0;
}
int main(void) {
  long i = 0;
#ifdef N
  for (int k = 0; k < N; k++) {
#else
  while (1) {
#endif
    pthread_t t;
    pthread_create(&t, 0, thr, (void *)i);
    i = 1 - i;
  }
  return 0;
}
