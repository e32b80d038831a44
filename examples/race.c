/* A lost update: two threads increment a shared counter without a lock.
 * Run it with different seeds to see different interleavings:
 *   wyvern run examples/race.c --seed 1
 *   wyvern run examples/race.c --seed 1 --trace
 */
#include <pthread.h>
#include <stdio.h>

#define N 5

int counter = 0;

void *worker(void *arg) {
  for (int i = 0; i < N; i++)
    counter++; /* load, add, store: another thread may run in between */
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  printf("counter = %d (expected %d)\n", counter, 2 * N);
  return counter == 2 * N ? 0 : 1;
}
