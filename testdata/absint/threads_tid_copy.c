// expect: unsafe
// main copies t1 into t2 whether or not the create ran: it may join the
// id 0, itself (PthreadMisuse).
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
