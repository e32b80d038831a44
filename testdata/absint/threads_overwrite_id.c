// expect: unsafe
// A thread clears tids[0] after the create loop filled it: main's join
// loop may join thread id 0, itself (PthreadMisuse).
#include <pthread.h>
#define N 2
pthread_t tids[N];
void *worker(void *arg) {
  tids[0] = 0;
  return 0;
}
int main(void) {
  int i;
  for (i = 0; i < N; i++)
    pthread_create(&tids[i], 0, worker, 0);
  for (i = 0; i < N; i++)
    pthread_join(tids[i], 0);
  return 0;
}
