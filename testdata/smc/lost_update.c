/* Two threads each add N to a shared counter without a lock: how likely
 * is an update lost, against N? A parameter sweep (docs/charts/sweep.png):
 *   wyvern check testdata/smc/lost_update.c 'Pr[<=100000](<> lost == 1)' --sweep N=1:8 --plot DIR
 * N is a C macro: each value compiles the program with -DN=V. */
#include <pthread.h>

#ifndef N
#define N 2
#endif

int counter;
int lost;

static void *add(void *arg) {
  for (int i = 0; i < N; i++) {
    int t = counter;
    counter = t + 1;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, add, 0);
  pthread_create(&b, 0, add, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  lost = counter != 2 * N;
  return 0;
}
