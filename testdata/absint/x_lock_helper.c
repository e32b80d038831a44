// expect: unsafe
// A helper locks m for its caller; the thread then unlocks a mutex it holds
// only through the helper... and unlocks twice.
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
