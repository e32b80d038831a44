// expect: unsafe
// The join loop's counter starts at 1 on one path.
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
#define N 2
pthread_mutex_t m;
pthread_t tids[N];
int g;
void *worker(void *arg) { pthread_mutex_lock(&m); g = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  int i;
  pthread_mutex_init(&m, 0);
  for (i = 0; i < N; i++)
    pthread_create(&tids[i], 0, worker, 0);
  i = __VERIFIER_nondet_uchar() == 1;
  for (; i < N; i++)
    pthread_join(tids[i], 0);
  pthread_mutex_destroy(&m);
  return 0;
}
