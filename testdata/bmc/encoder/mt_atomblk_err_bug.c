/* Threads (encoder test, atomic sections as blocks): an assertion inside
 * t1's section (the block ends before it); it fails where x is 2, which main's section leaves (a violation inside t1's section). */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int __VERIFIER_nondet_int(void);

int x;

void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  int v = x;
  assert(x != 2);
  x = v + 10;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t1, 0);
  __VERIFIER_atomic_begin();
  x = 1;
  x = x + 1;
  __VERIFIER_atomic_end();
  pthread_join(p, 0);
  return 0;
}
