/* Threads (encoder test): main publishes a pointer to a global through a
 * shared global after starting T1; T1 writes through the pointer it loads,
 * which is null when T1 runs before main's store: a null dereference. */
#include <pthread.h>

int x = 0;
int *shared = 0;

void *t1(void *arg) {
  int *p = shared;
  *p = 1;
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  shared = &x;
  return 0;
}
