/* Threads (encoder test): the violation needs T2 to write between two
 * reads of T1, a switch back to T1 after T2: a second round. */
#include <assert.h>
#include <pthread.h>

int x = 0;

void *t1(void *arg) {
  int a = x;
  int b = x;
  assert(a == b);
  return 0;
}
void *t2(void *arg) { x = 1; return 0; }

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
