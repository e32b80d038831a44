// expect: unsafe
// The thread unlocks a mutex it does not hold on one path.
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
pthread_mutex_t m;
void *worker(void *arg) {
  if (__VERIFIER_nondet_uchar())
    pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
