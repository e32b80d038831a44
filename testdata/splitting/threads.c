/* threads.c -- counters in threads, for Split=auto: two threads make 10
 * trials each, a hit with probability 1/10, each counting its hits in its
 * own global; the rare event is a + b >= 10, whatever the schedule:
 * P(Bin(20, 0.1) >= 10) = 7.1509e-6. Split=auto scores min((a + b), 10).
 *
 *   wyvern check threads.c 'Pr[<=100000](<> a + b >= 10) {Split=auto}'
 */
#include <pthread.h>
#include "wyvern.h"

int a, b;

static void *trials(void *arg) {
  int *n = arg;
  for (int i = 0; i < 10; i++)
    if (wyvern_coin(1, 10))
      (*n)++;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, trials, &a);
  pthread_create(&t2, 0, trials, &b);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
