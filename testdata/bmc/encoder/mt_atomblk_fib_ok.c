/* Threads (encoder test, atomic sections as blocks): SV-COMP's fib_bench
 * with two iterations a thread; each addition is an atomic section, and
 * main reads i and j in sections of its own. The condition is i > 8 || j > 8:
 * no interleaving makes either exceed 8 (the alternation makes j 8): safe. */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int i = 1, j = 1;

void *t1(void *arg) {
  for (int k = 0; k < 2; k++) {
    __VERIFIER_atomic_begin();
    i += j;
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *t2(void *arg) {
  for (int k = 0; k < 2; k++) {
    __VERIFIER_atomic_begin();
    j += i;
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  __VERIFIER_atomic_begin();
  int ci = i;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  int cj = j;
  __VERIFIER_atomic_end();
  assert(!(ci > 8 || cj > 8));
  return 0;
}
