/* Threads (encoder test): main joins T1 and reads its result; T1 returns
 * its argument plus one. The assertion fails exactly when the join passed. */
#include <assert.h>
#include <pthread.h>

void *t1(void *arg) { return (void *)((long)arg + 1); }

int main(void) {
  pthread_t p;
  void *r = 0;
  pthread_create(&p, 0, t1, (void *)41L);
  pthread_join(p, &r);
  assert((long)r != 42);
  return 0;
}
