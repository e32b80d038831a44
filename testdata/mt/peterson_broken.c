/* Property (expected to be violated): Peterson's algorithm with the two entry
 * assignments swapped (turn is given away BEFORE the flag is raised) does not
 * guarantee mutual exclusion: under some schedules both threads are in the
 * critical section together and reach_error() is called. This program checks
 * that the in_cs check used by peterson.c does detect a violation. A short
 * delay loop between the two stores widens the race window so that a few
 * hundred random schedules find it. */
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
    turn = other; /* BUG: must come after flag[me] = 1 */
    for (int d = 0; d < 4; d++) /* widen the window between the two stores */
      ;
    flag[me] = 1;
    while (flag[other] == 1 && turn == other)
      ;
    in_cs = in_cs + 1;
    for (int j = 0; j < 3; j++) /* stay a while in the critical section */
      entries = entries + 1;
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
  return entries;
}
