/* Bug (threads): T1 reads x once, while main may store 2 to it before or
 * after; T1 asserts it saw 0. With one round main runs to its return
 * first (no violation); every schedule fits in 4
 * rounds (main has 2 switch points), so --complete finds the one where
 * T1 reads after the store, and its witness replays. */
#include <assert.h>
#include <pthread.h>

int x = 0;

void *t1(void *arg) {
  int v = x;
  assert(v == 0);
  return arg;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  x = 2;
  return 0;
}
