/* Safe (threads): T1 reads x once, while main may store 2 to it before or
 * after; T1 sees 0 or 2 in every schedule. Every schedule fits in 4
 * round-robin rounds (main has 2 switch points: its store and its
 * return), so the complete threaded check (--complete) proves it. */
#include <assert.h>
#include <pthread.h>

int x = 0;

void *t1(void *arg) {
  int v = x;
  assert(v == 0 || v == 2);
  return arg;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  x = 2;
  return 0;
}
