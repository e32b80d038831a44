// start returns while the thread it created may still write start's
// local: a use after return in one order only (the return frees the block
// the thread's store writes).
#include <pthread.h>
pthread_t t;
void *worker(void *arg) {
  *(int *)arg = 1;
  return 0;
}
void start(void) {
  int y = 0;
  pthread_create(&t, 0, worker, &y);
}
int main(void) {
  start();
  pthread_join(t, 0);
  return 0;
}
