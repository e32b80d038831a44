/* Property (expected to be violated): two threads take the same two mutexes
 * in opposite orders. If each gets its first mutex before the other gets its
 * second, neither can proceed: the run deadlocks. Under other schedules both
 * threads finish and main returns 2. */
#include <pthread.h>

pthread_mutex_t ma = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t mb = PTHREAD_MUTEX_INITIALIZER;
int done = 0;

void *ab(void *arg) {
  pthread_mutex_lock(&ma);
  pthread_mutex_lock(&mb);
  done++;
  pthread_mutex_unlock(&mb);
  pthread_mutex_unlock(&ma);
  return 0;
}

void *ba(void *arg) {
  pthread_mutex_lock(&mb);
  pthread_mutex_lock(&ma);
  done++;
  pthread_mutex_unlock(&ma);
  pthread_mutex_unlock(&mb);
  return 0;
}

int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, ab, 0);
  pthread_create(&y, 0, ba, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return done;
}
