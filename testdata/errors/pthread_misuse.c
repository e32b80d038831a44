/* Unlocking a mutex that is not locked is PthreadMisuse. */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

int main(void) {
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_mutex_unlock(&m); // ERROR: PthreadMisuse
  return 0;
}
