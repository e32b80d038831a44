// expect: unsafe
// A goto enters the create loop's body with i = 1: tids[0] stays 0 and
// main joins itself (PthreadMisuse).
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
#define N 2
pthread_t tids[N];
void *worker(void *arg) { return 0; }
int main(void) {
  int i = 0;
  if (__VERIFIER_nondet_uchar() == 1) {
    i = 1;
    goto body;
  }
  for (i = 0; i < N; i++) {
  body:
    pthread_create(&tids[i], 0, worker, 0);
  }
  for (i = 0; i < N; i++)
    pthread_join(tids[i], 0);
  return 0;
}
