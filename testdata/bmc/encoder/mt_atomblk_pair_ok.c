/* Threads (encoder test, atomic sections as blocks): t1 moves x and y
 * together inside atomic sections with a branch on an input and a loop
 * (paths that join inside the section); t2 reads both in one section too: x == y always (safe). */
#include <assert.h>
#include <pthread.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
_Bool __VERIFIER_nondet_bool(void);

int x, y;

void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  if (__VERIFIER_nondet_bool()) {
    x = x + 2;
    y = y + 2;
  } else {
    for (int k = 0; k < 2; k++) {
      x++;
      y++;
    }
    x--;
    y--;
  }
  __VERIFIER_atomic_end();
  return 0;
}

void *t2(void *arg) {
  __VERIFIER_atomic_begin();
  int a = x, b = y;
  __VERIFIER_atomic_end();
  assert(a == b);
  return 0;
}

int main(void) {
  pthread_t p, q;
  pthread_create(&p, 0, t1, 0);
  pthread_create(&q, 0, t2, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  return 0;
}
