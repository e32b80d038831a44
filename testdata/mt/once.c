/* Property: pthread_once runs the init routine exactly once even when main
 * and three threads race to call it, and no caller returns from
 * pthread_once before the init routine has finished. reach_error() is never
 * called and main returns the number of times init ran (1). */
#include <pthread.h>

void reach_error(void);

#define NTHREADS 3

pthread_once_t once = PTHREAD_ONCE_INIT;
int init_count = 0;
int ready = 0;

void init(void) {
  int c = init_count;
  c = c + 1;
  init_count = c;
  ready = 1;
}

void *worker(void *arg) {
  pthread_once(&once, init);
  if (!ready)
    reach_error();
  return 0;
}

int main(void) {
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], 0, worker, 0);
  pthread_once(&once, init);
  if (!ready)
    reach_error();
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], 0);
  return init_count;
}
