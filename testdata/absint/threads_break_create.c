// expect: unsafe
// The create loop may stop early (break): the join loop may read an
// element no create wrote.
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
#define N 2
pthread_t tids[N];
void *worker(void *arg) { return 0; }
int main(void) {
  int i;
  for (i = 0; i < N; i++) {
    if (__VERIFIER_nondet_uchar() == 7)
      break;
    pthread_create(&tids[i], 0, worker, 0);
  }
  for (i = 0; i < N; i++)
    pthread_join(tids[i], 0);
  return 0;
}
