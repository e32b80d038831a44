/* Safe (threads): the lost update of mt_lost_update.c, with the
 * load/add/store under a mutex: counter is always 4 after the joins.
 * Threaded and safe: incomplete under any context bound. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *worker(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    int tmp = counter;
    counter = tmp + 1;
    pthread_mutex_unlock(&m);
  }
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 4);
  return 0;
}
