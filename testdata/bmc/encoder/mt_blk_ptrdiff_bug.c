/* Threads (encoder test, critical sections as blocks): main reads x
 * through &y plus the difference of the two addresses, without the mutex.
 * The vm adds a getelementptr's index to the address as an integer, so
 * the pointer is x's; main may see x == 1 inside t1's critical section.
 * A violation. The lockset analysis once took the pointer to be into y
 * only, so x looked protected by m, t1's section became one block and the
 * partial-order check answered not-satisfied (LP64). */
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
  long d = (char *)&x - (char *)&y;
  int *p = (int *)((char *)&y + d);
  pthread_create(&t, 0, t1, 0);
  assert(*p == 0);
  return 0;
}
