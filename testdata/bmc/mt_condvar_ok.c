/* Safe (threads, condition variable): two consumers wait with
 * `while (count == 0)`, the producer adds two items, signalling after each
 * under the mutex; count never goes negative and every thread ends.
 * Threaded and safe: the partial-order check proves it (the wait-loop
 * reduction, symbolic/encode_wait.go). */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int count = 0;

void *consumer(void *arg) {
  pthread_mutex_lock(&m);
  while (count == 0)
    pthread_cond_wait(&c, &m);
  count--;
  assert(count >= 0);
  pthread_mutex_unlock(&m);
  return arg;
}

void *producer(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    count++;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
  }
  return arg;
}

int main(void) {
  pthread_t c0, c1, p;
  pthread_create(&c0, 0, consumer, 0);
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c0, 0);
  pthread_join(c1, 0);
  assert(count == 0);
  return 0;
}
