/* Threads (encoder test): main creates and joins T1, then creates T2, which
 * the vm gives T1's id (T1 was joined) where the encoding numbers threads in
 * creation order: the schedule must replay across that. The assertion fails
 * when T2 increments x before main's store of 10. */
#include <assert.h>
#include <pthread.h>

int x;
void *t(void *a) { x = x + 1; return 0; }

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t, 0);
  pthread_join(p, 0);
  pthread_create(&p, 0, t, 0);
  x = 10;
  pthread_join(p, 0);
  assert(x != 10);
  return 0;
}
