/* Threads (encoder test): main creates and joins T1, then creates T2, which
 * the vm gives T1's id (T1 was joined): the two pthread_t values are equal
 * and the assertion fails. The encodings number threads in creation order
 * (T1 1, T2 2), so BMC must not claim a proof (it once answered
 * not-satisfied, complete, where explicit search reaches the failure). */
#include <assert.h>
#include <pthread.h>

pthread_t c1, c2;
int x;
void *f(void *a) { x++; return 0; }

int main(void) {
  pthread_create(&c1, 0, f, 0);
  pthread_join(c1, 0);
  pthread_create(&c2, 0, f, 0);
  pthread_join(c2, 0);
  assert(c1 != c2);
  return 0;
}
