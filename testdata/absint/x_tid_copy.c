// expect: unsafe
// main copies a tid into a second variable before the create has run on one path.
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
pthread_t t1, t2;
void *worker(void *arg) { return 0; }
int main(void) {
  if (__VERIFIER_nondet_uchar() == 1)
    pthread_create(&t1, 0, worker, 0);
  t2 = t1;
  pthread_join(t2, 0);
  return 0;
}
