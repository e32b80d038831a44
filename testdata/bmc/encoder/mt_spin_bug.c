/* Threads (encoder test, spin-loop reduction): as mt_spin_ok.c, but the
 * child raises the flag before it writes the data, so main can read 0:
 * the assertion fails when main runs between the child's two stores. */
#include <assert.h>
#include <pthread.h>

volatile int data = 0;
volatile int flag = 0;

void *producer(void *arg) {
  flag = 1;
  data = 42;
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
