/* Bug (threads, lost update): two threads increment a shared counter without
 * a lock (load, add, store written out); if both load 0 before either stores,
 * one update is lost and main's assertion counter == 2 fails. Schedule: main
 * blocks in join -> T1 loads -> T2 loads, stores, ends -> T1 stores, ends ->
 * main: 4 switches. */
#include <assert.h>
#include <pthread.h>

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

int counter = 0;

void *worker(void *arg) {
  long id = (long)arg;
  if (id == 0) W_BEGIN(0); else W_BEGIN(1);
  int tmp = counter;
  if (id == 0) { W_END(); W_BEGIN(2); }
  counter = tmp + 1;
  W_END();
  return (void *)id;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0L);
  pthread_create(&b, 0, worker, (void *)1L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
