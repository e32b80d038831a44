// expect: unsafe
// Two mutex words that overlap: the worker's, two bytes into m, is free
// while main holds m; its lock changes m's word, whose unlock then finds
// another value than main's (PthreadMisuse).
#include <pthread.h>
pthread_mutex_t m;
void *worker(void *arg) {
  pthread_mutex_t *p = (pthread_mutex_t *)((char *)&m + 2);
  pthread_mutex_lock(p);
  pthread_mutex_unlock(p);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
