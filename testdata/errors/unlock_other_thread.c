/* A thread unlocking a mutex held by another process (main) is
 * PthreadMisuse, whatever the schedule: main holds the mutex until the thread
 * has been joined. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *thief(void *arg) {
  pthread_mutex_unlock(&m); // ERROR: PthreadMisuse
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, thief, 0);
  pthread_join(t, 0);
  pthread_mutex_unlock(&m);
  return 0;
}
