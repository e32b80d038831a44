/* Property (expected to be violated): two threads each increment a shared
 * counter N times WITHOUT a lock. The load/add/store of `counter++` can
 * interleave, so under some schedules an update is lost and main returns less
 * than 2 * N; under other schedules it returns exactly 2 * N. The exit status
 * is the final count. */
#include <pthread.h>

#define N 5

int counter = 0;

void *worker(void *arg) {
  for (int i = 0; i < N; i++)
    counter++;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return counter;
}
