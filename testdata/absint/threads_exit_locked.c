// expect: unsafe
// A thread ends with pthread_exit while holding m; main destroys m.
#include <pthread.h>
pthread_mutex_t m;
void *worker(void *arg) { pthread_mutex_lock(&m); pthread_exit(0); }
int main(void) {
  pthread_t t;
  pthread_mutex_init(&m, 0);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  pthread_mutex_destroy(&m);
  return 0;
}
