/* Bug (threads): Peterson's algorithm with the entry stores swapped (turn is
 * given away before the flag is raised). Schedule: T0 sets turn = 1 -> T1
 * sets turn = 0, flag[1] = 1, finds flag[0] == 0, enters -> T0 sets flag[0] =
 * 1, finds turn == 0, enters: both inside, reach_error. main -> T0 -> T1 -> T0:
 * 3 switches; no busy-wait iteration and one round (unwind 1). */
#include <pthread.h>
void reach_error(void);

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

volatile int flag[2] = {0, 0};
volatile int turn = 0;
volatile int in_cs = 0;

void *proc(void *arg) {
  int me = (int)(long)arg;
  int other = 1 - me;
  for (int k = 0; k < 2; k++) {
    if (k == 0) W_BEGIN(me == 0 ? 0 : 1);
    turn = other; /* BUG: must come after flag[me] = 1 */
    if (k == 0 && me == 0) { W_END(); W_BEGIN(2); }
    flag[me] = 1;
    while (flag[other] == 1 && turn == other)
      ;
    in_cs = in_cs + 1;
    if (in_cs != 1)
      reach_error();
    if (k == 0 && me == 1) { W_END(); W_BEGIN(3); }
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
