/* Threads (encoder test): T1 sets x = 1, T2 asserts x == 0 after reading
 * it. The violation needs T1's store before T2's load: main, T1, T2 in one
 * round (T1 runs before T2 in round-robin order). */
#include <assert.h>
#include <pthread.h>

int x = 0;

void *t1(void *arg) { x = 1; return 0; }
void *t2(void *arg) { assert(x == 0); return 0; }

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  return 0;
}
