/* Property: a shared counter incremented N times by each of NTHREADS threads
 * under a mutex never loses an update. main joins every thread, calls
 * reach_error() (declared, not defined) if the count is wrong and otherwise
 * returns the count (NTHREADS * N = 60) as its exit status. */
#include <pthread.h>

void reach_error(void);

#define NTHREADS 3
#define N 20

int counter = 0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  for (int i = 0; i < N; i++) {
    pthread_mutex_lock(&lock);
    counter = counter + 1;
    pthread_mutex_unlock(&lock);
  }
  return 0;
}

int main(void) {
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], 0);
  if (counter != NTHREADS * N)
    reach_error();
  return counter;
}
