/* Threads (encoder test, critical sections as blocks): main reads x as
 * y[-1073742848], without the mutex. The vm adds a getelementptr's offset
 * to the address as an integer, and that offset is x's address minus y's
 * (LP64; it depends on the vm's layout of the globals: x's block is the
 * one before y's), so main may see x == 1 inside t1's critical section.
 * A violation. The lockset analysis once took the pointer to stay in y,
 * so x looked protected by m, t1's section became one block and the
 * partial-order check answered not-satisfied. */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  x = 1;
  x = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  int *p = &y;
  pthread_create(&t, 0, t1, 0);
  assert(p[-1073742848L] == 0);
  return 0;
}
