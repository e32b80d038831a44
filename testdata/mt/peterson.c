/* Property: Peterson's algorithm (correct version) guarantees mutual
 * exclusion for two threads under sequential consistency. Each thread enters
 * its critical section ROUNDS times; inside it checks that it is alone
 * (in_cs == 1) and calls reach_error() otherwise, which must never happen.
 * main returns the number of increments made inside critical sections,
 * 3 * 2 * ROUNDS = 60, so no increment of `entries` was lost either. */
#include <pthread.h>

void reach_error(void);

#define ROUNDS 10

volatile int flag[2] = {0, 0};
volatile int turn = 0;
volatile int in_cs = 0;
int entries = 0;

void *proc(void *arg) {
  int me = (int)(long)arg;
  int other = 1 - me;
  for (int k = 0; k < ROUNDS; k++) {
    flag[me] = 1;
    turn = other;
    while (flag[other] == 1 && turn == other)
      ;
    /* critical section */
    in_cs = in_cs + 1;
    for (int j = 0; j < 3; j++) /* stay a while in the critical section */
      entries = entries + 1;
    if (in_cs != 1)
      reach_error();
    in_cs = in_cs - 1;
    /* exit section */
    flag[me] = 0;
  }
  return 0;
}

int main(void) {
  pthread_t t0, t1;
  pthread_create(&t0, 0, proc, (void *)0L);
  pthread_create(&t1, 0, proc, (void *)1L);
  pthread_join(t0, 0);
  pthread_join(t1, 0);
  return entries;
}
