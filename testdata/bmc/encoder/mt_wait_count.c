/* Threads (encoder test, wait-loop reduction): mt_wait_ok.c with the waiter
 * counting its waits in memory. Safe, but an iteration of the loop stores,
 * so it is not a wait loop (symbolic/encode_wait.go): every bound cuts it
 * (spurious wakeups) and the partial-order check does not prove it. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready = 0;
int data = 0;
int waits = 0;

void *waiter(void *arg) {
  pthread_mutex_lock(&m);
  while (!ready) {
    waits++;
    pthread_cond_wait(&c, &m);
  }
  int v = data;
  pthread_mutex_unlock(&m);
  assert(v == 42);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  pthread_mutex_lock(&m);
  data = 42;
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
