/* Threads (encoder test, spin-loop reduction): the busy wait counts its
 * turns in a global, so an iteration is visible (the child's assertion
 * reads the count) and the loop is not reduced: the violation needs main
 * to turn twice while the child waits to read. */
#include <assert.h>
#include <pthread.h>

volatile int flag = 0;
volatile int turns = 0;

void *child(void *arg) {
  int seen = turns;
  assert(seen < 2);
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, child, 0);
  while (flag == 0)
    turns = turns + 1;
  pthread_join(t, 0);
  return 0;
}
