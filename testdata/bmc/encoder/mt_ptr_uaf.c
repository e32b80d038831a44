/* Threads (encoder test): T1 publishes a heap block through a shared
 * global and frees it; T2 reads through the pointer it loads, after the
 * free when T1 runs first: a use after free. */
#include <pthread.h>
#include <stdlib.h>

int *shared = 0;
int sink;

void *t1(void *arg) {
  int *q = malloc(sizeof(int));
  if (!q) return 0;
  *q = 1; /* (written: a read of it before the free sees 1) */
  shared = q;
  free(q);
  return 0;
}

void *t2(void *arg) {
  int *p = shared;
  if (p) sink = *p;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  return 0;
}
