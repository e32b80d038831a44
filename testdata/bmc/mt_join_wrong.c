/* Bug (threads, missing join): main joins the first worker only and then
 * reads the second worker's result, which is still 0 if that worker has not
 * run: main -> T0 (runs, ends) -> main: 2 switches. */
#include <assert.h>
#include <pthread.h>

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

int res[2];

void *worker(void *arg) {
  long id = (long)arg;
  if (id == 1) W_BEGIN(1); /* never given: T1 does not run in the witness */
  res[id] = 42;
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, 0, worker, (void *)0L);
  pthread_create(&t1, 0, worker, (void *)1L);
  pthread_join(t0, 0);
  assert(res[0] == 42 && res[1] == 42); /* BUG: t1 not joined */
  pthread_join(t1, 0);
  return 0;
}
