/* Threads (encoder test): pthread_once is refused by the threaded encoder. */
#include <pthread.h>

pthread_once_t once = PTHREAD_ONCE_INIT;
int n = 0;

void init(void) { n++; }
void *t1(void *arg) { pthread_once(&once, init); return 0; }

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t1, 0);
  pthread_once(&once, init);
  pthread_join(p, 0);
  return 0;
}
