// expect: unsafe
// Helpers lock and unlock m for main, which unlocks it twice: the second
// unlock finds m free (PthreadMisuse).
#include <pthread.h>
pthread_mutex_t m;
void acq(void) { pthread_mutex_lock(&m); }
void rel(void) { pthread_mutex_unlock(&m); }
int main(void) {
  acq();
  rel();
  rel();
  return 0;
}
