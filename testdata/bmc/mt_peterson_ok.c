/* Safe (threads): Peterson's mutual exclusion for two threads, two rounds
 * each; in_cs counts the threads inside the critical section and never
 * exceeds 1. Busy waiting makes the loops unbounded, and threads are checked
 * under a context bound, so the verdict is incomplete, never not-satisfied. */
#include <pthread.h>
void reach_error(void);

volatile int flag[2] = {0, 0};
volatile int turn = 0;
volatile int in_cs = 0;

void *proc(void *arg) {
  int me = (int)(long)arg;
  int other = 1 - me;
  for (int k = 0; k < 2; k++) {
    flag[me] = 1;
    turn = other;
    while (flag[other] == 1 && turn == other)
      ;
    in_cs = in_cs + 1;
    if (in_cs != 1)
      reach_error();
    in_cs = in_cs - 1;
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
  return 0;
}
