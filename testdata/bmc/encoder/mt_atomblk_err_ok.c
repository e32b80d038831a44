/* Threads (encoder test, atomic sections as blocks): an assertion inside
 * t1's section (the block ends before it); it fails only where x is 1 inside the section, and main's section leaves x 0 or 2 (safe). */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int __VERIFIER_nondet_int(void);

int x;

void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  int v = x;
  assert(x != 1);
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
