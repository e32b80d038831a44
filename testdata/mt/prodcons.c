/* Property: a bounded buffer (capacity 2) guarded by a mutex and two
 * condition variables (not_full, not_empty) with while-loop waits. Two
 * producers each put 1..ITEMS, two consumers each take ITEMS items and add
 * them up. The run always completes (no deadlock, no lost or duplicated item)
 * and main returns the total 2 * (1 + ... + ITEMS) = 110. */
#include <pthread.h>

void reach_error(void);

#define CAP 2
#define ITEMS 10

int buf[CAP];
int head = 0, tail = 0, count = 0;
int total = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

void *producer(void *arg) {
  for (int i = 1; i <= ITEMS; i++) {
    pthread_mutex_lock(&m);
    while (count == CAP)
      pthread_cond_wait(&not_full, &m);
    buf[tail] = i;
    tail = (tail + 1) % CAP;
    count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *consumer(void *arg) {
  int sum = 0;
  for (int i = 0; i < ITEMS; i++) {
    pthread_mutex_lock(&m);
    while (count == 0)
      pthread_cond_wait(&not_empty, &m);
    sum += buf[head];
    head = (head + 1) % CAP;
    count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&m);
  }
  pthread_mutex_lock(&m);
  total += sum;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p1, p2, c1, c2;
  pthread_create(&c1, 0, consumer, 0);
  pthread_create(&p1, 0, producer, 0);
  pthread_create(&c2, 0, consumer, 0);
  pthread_create(&p2, 0, producer, 0);
  pthread_join(p1, 0);
  pthread_join(p2, 0);
  pthread_join(c1, 0);
  pthread_join(c2, 0);
  if (total != 2 * (ITEMS * (ITEMS + 1) / 2) || count != 0)
    reach_error();
  return total;
}
