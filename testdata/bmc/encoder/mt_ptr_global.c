/* Threads (encoder test): T1 publishes a pointer into a global array, T2
 * writes through the pointer it loads from shared memory, main joins both
 * and asserts the array is unchanged: violated when T1 runs before T2. */
#include <assert.h>
#include <pthread.h>

int arr[4];
int *shared = 0;

void *t1(void *arg) { shared = &arr[1]; return 0; }

void *t2(void *arg) {
  int *p = shared;
  if (p) p[1] = 7;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(arr[2] == 0);
  return 0;
}
