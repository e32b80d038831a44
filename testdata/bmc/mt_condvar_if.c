/* Bug (threads, condition variable waited on with `if`): consumer C0 waits
 * for an item; the producer adds one and signals; before C0 reacquires the
 * mutex, consumer C1 takes the item; C0 wakes, does not re-test, and consumes
 * from an empty buffer: the assertion count >= 0 fails. The shortest schedule
 * has 4 switches (main -> C0 -> P -> C1 -> C0); the witness the native check
 * forces has 6 (C1 holds the mutex across the signal). A consumer left waiting
 * with no producer deadlocks: not an error. */
#include <assert.h>
#include <pthread.h>

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int count = 0;

void *consumer(void *arg) {
  long id = (long)arg;
  if (id == 0) W_BEGIN(0); else W_BEGIN(2);
  pthread_mutex_lock(&m);
  if (count == 0) { /* BUG: must be while */
    if (id == 0) W_END();
    pthread_cond_wait(&c, &m);
  }
  count--;
  assert(count >= 0);
  if (id == 1) { W_END(); W_BEGIN(4); }
  pthread_mutex_unlock(&m);
  return arg;
}

void *producer(void *arg) {
  W_BEGIN(1);
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
  W_END();
  W_BEGIN(3);
  pthread_cond_signal(&c);
  W_END();
  return arg;
}

int main(void) {
  pthread_t c0, c1, p;
  pthread_create(&c0, 0, consumer, (void *)0L);
  pthread_create(&c1, 0, consumer, (void *)1L);
  pthread_create(&p, 0, producer, 0);
  pthread_join(p, 0);
  pthread_join(c0, 0);
  pthread_join(c1, 0);
  return 0;
}
