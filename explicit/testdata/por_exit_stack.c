// main leaves by pthread_exit while its thread may still write main's
// local: a use after return in one order only. Partial-order reduction
// must not take the thread's store alone (the exit frees the block it
// writes).
#include <pthread.h>
void *worker(void *arg) {
  *(int *)arg = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  int x = 0;
  pthread_create(&t, 0, worker, &x);
  pthread_exit(0);
  return 0;
}
