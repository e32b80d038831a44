// expect: unsafe
// A thread may end holding the mutex; main destroys it after the joins
// (PthreadMisuse).
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
pthread_mutex_t m;
pthread_t t;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  if (__VERIFIER_nondet_uchar() & 1)
    return 0;
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
