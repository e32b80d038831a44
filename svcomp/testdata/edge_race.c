// A data race behind an input at a boundary: the lock main takes is
// picked by an input, and only an index in 0..9 other than 4 leaves data
// unprotected against the thread (one 32-bit value in 477 million).
// Explicit search refuses the 32-bit index, BMC does not check races;
// simulation finds it in its rounds with Inputs=edges (0 to 3 are edges).
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int data;
pthread_mutex_t m[10];
void *worker(void *arg) {
  pthread_mutex_lock(&m[4]);
  data++;
  pthread_mutex_unlock(&m[4]);
  return 0;
}
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 9)
    return 0;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m[i]);
  data++;
  pthread_mutex_unlock(&m[i]);
  pthread_join(t, 0);
  return 0;
}
