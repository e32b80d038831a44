// Two threads increment a shared counter without a lock: a data race.
#include <pthread.h>
int counter;
void *inc(void *arg) {
  counter = counter + 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
