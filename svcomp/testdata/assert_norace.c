// no-data-race holds: the one shared access is under the mutex, and main
// reads x only after the join. unreach-call does not: reach_error() is
// assert(0), reached whenever the thread ran. A failed assert() aborts
// the program as abort() does, so it does not stop TRUE for no-data-race.
#include <assert.h>
#include <pthread.h>
void reach_error() { assert(0); }
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  if (x == 1) reach_error();
  return 0;
}
