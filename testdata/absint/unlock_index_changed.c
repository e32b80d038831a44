// expect: unsafe
// The lock's index changes through a pointer between the lock and the
// unlock, which names m[1], not held (PthreadMisuse).
#include <pthread.h>
pthread_mutex_t m[3];
int main(void) {
  int i = 0;
  int *p = &i;
  pthread_mutex_lock(&m[i]);
  *p = 1;
  pthread_mutex_unlock(&m[i]);
  return 0;
}
