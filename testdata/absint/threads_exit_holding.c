// expect: unsafe
// The thread ends in a helper's pthread_exit while it holds the mutex;
// main destroys it after the join (PthreadMisuse).
#include <pthread.h>
pthread_mutex_t m;
pthread_t t;
void finish(void) { pthread_exit(0); }
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  finish();
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_mutex_init(&m, 0);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_mutex_destroy(&m);
  return 0;
}
