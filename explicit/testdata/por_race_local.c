/* por_race_local.c -- partial-order reduction with DataRace: two threads
 * fill buffers of their own (steps independent of everything the other
 * does) and then update a shared counter; with RACY the update takes no
 * lock and races, without it every access to the counter is under the
 * mutex. TestPORDataRace compiles it both ways. */
#include <pthread.h>
#include <stdlib.h>

#define N 3

int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int *buf = malloc(N * sizeof(int));
  if (!buf)
    return 0;
  for (int i = 0; i < N; i++)
    buf[i] = i;
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += buf[i];
  free(buf);
#ifndef RACY
  pthread_mutex_lock(&m);
#endif
  counter += sum;
#ifndef RACY
  pthread_mutex_unlock(&m);
#endif
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return counter == 6 ? 0 : 1;
}
