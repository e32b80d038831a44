/* Threads (encoder test, critical sections as blocks): t1's section
 * stores an unprotected flag between two stores of protected x (the
 * block ends before the flag); t2 reads the flag without the mutex, then
 * x with it. Safe: t2's lock waits for t1's unlock. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, flag;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  flag = 1;
  x = 2;
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *arg) {
  if (flag) {
    pthread_mutex_lock(&m);
    int v = x;
    pthread_mutex_unlock(&m);
    assert(v == 2);
  }
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
