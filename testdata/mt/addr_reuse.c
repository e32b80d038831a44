/* Address reuse with threads (vm/reuse.go): each turn main frees a block,
 * allocates another and compares the two, a coin that may say they share an
 * address; a worker steps beside it. The comparison's coin must come between
 * the scheduler's draws as a call's does, so that a run, an observed run and
 * a replay of it take the same path (they did not while straight runs drew
 * the scheduler's choices ahead across the comparison). */
#include <pthread.h>
#include <stdlib.h>

volatile int g;

void *worker(void *arg) {
  for (int i = 0; i < 100; i++)
    g++;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int cnt = 0;
  for (int i = 0; i < 6; i++) {
    int *p = malloc(4);
    free(p);
    int *q = malloc(4);
    int a = i + 1, b = a * 2;
    cnt = 2 * cnt + (p == q);
    g = a + b;
    free(q);
  }
  pthread_join(t, 0);
  return cnt;
}
