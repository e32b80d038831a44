/* Threads (encoder test): T1 publishes a heap block through a shared
 * global, T2 dereferences the pointer it loads from that global (a block
 * the encoder cannot tell from the load). T1 writes 1 into the block
 * before publishing it, T2 asserts 0: violated when T1 runs first. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *shared = 0;

void *t1(void *arg) {
  int *q = malloc(sizeof(int));
  if (!q) return 0;
  *q = 1;
  shared = q;
  return 0;
}

void *t2(void *arg) {
  int *p = shared;
  if (p) assert(*p == 0);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  return 0;
}
