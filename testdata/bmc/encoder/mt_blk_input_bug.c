/* Threads (encoder test, critical sections as blocks): mt_blk_input_ok.c
 * with y set to a second input: main may see x != y. A violation. */
#include <assert.h>
#include <pthread.h>

extern _Bool __VERIFIER_nondet_bool(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y, n;

static void set(int v) {
  x = v;
  y = __VERIFIER_nondet_bool();
}

void *t1(void *arg) {
  pthread_mutex_lock(&m);
  set(__VERIFIER_nondet_bool());
  n = n + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t p;
  pthread_create(&p, 0, t1, 0);
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    assert(x == y);
    n = n + 1;
    pthread_mutex_unlock(&m);
  }
  pthread_join(p, 0);
  assert(n == 3);
  return 0;
}
