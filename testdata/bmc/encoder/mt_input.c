/* Threads (encoder test): the violation needs one input value in 2^32 and
 * the thread: the witness has both an input and a schedule. */
#include <assert.h>
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int x, flag;

void *t1(void *arg) {
  if (x == 0x1234567)
    flag = 1;
  return 0;
}

int main(void) {
  x = __VERIFIER_nondet_int();
  pthread_t p;
  pthread_create(&p, 0, t1, 0);
  pthread_join(p, 0);
  assert(!flag);
  return 0;
}
