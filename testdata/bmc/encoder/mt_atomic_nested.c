/* Threads (encoder test, partial order): an atomic section that calls a
 * __VERIFIER_atomic_ function (nested: the vm counts the depth) and a
 * thread that ends inside its own section without the end (the vm runs
 * the others once it ended). main's section hides x == 1 from the child:
 * the only violation is main's, after the child's section. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int x, y;

void __VERIFIER_atomic_inc(void) { y = y + 1; }

void *child(void *arg) {
  assert(x == 0);
  __VERIFIER_atomic_begin();
  y = 5;
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, child, 0);
  __VERIFIER_atomic_begin();
  __VERIFIER_atomic_inc();
  x = 1;
  x = 0;
  __VERIFIER_atomic_end();
  pthread_join(t, 0);
  assert(y != 5);
  return 0;
}
