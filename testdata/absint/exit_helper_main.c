// expect: unsafe
// main leaves through pthread_exit in a helper: its local x dies while
// the thread may still write it (UseAfterReturn).
#include <pthread.h>
void *worker(void *arg) {
  *(int *)arg = 1;
  return 0;
}
void leave(void) { pthread_exit(0); }
int main(void) {
  pthread_t t;
  int x = 0;
  pthread_create(&t, 0, worker, &x);
  leave();
  return 0;
}
