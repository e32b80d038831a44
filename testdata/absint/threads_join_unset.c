// expect: unsafe
// The create loop fills only the first element; the join loop reads the
// second, still 0: main joins itself (PthreadMisuse).
#include <pthread.h>
#define N 2
pthread_t tids[N];
void *worker(void *arg) { return 0; }
int main(void) {
  int i;
  for (i = 0; i < N - 1; i++)
    pthread_create(&tids[i], 0, worker, 0);
  for (i = 0; i < N; i++)
    pthread_join(tids[i], 0);
  return 0;
}
