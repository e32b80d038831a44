/* Threads (encoder test, spin-loop reduction): the child publishes data and
 * then raises the flag; main busy-waits on the flag and then reads the data.
 * Safe under every schedule (sequential consistency); the busy wait has no
 * bound, so only the spin-loop reduction lets the partial-order check prove
 * it. */
#include <assert.h>
#include <pthread.h>

volatile int data = 0;
volatile int flag = 0;

void *producer(void *arg) {
  data = 42;
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (flag == 0)
    ;
  assert(data == 42);
  pthread_join(t, 0);
  return 0;
}
