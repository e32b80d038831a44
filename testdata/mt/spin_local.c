/* Processes that may spin forever in a loop over their own locals (a
 * do-while on values read once), as SV-COMP's pthread-ext/16_peterson does.
 * Under partial-order reduction such a loop is an unbounded run of
 * invisible steps: it must end a transition (explicit's maxInvisibleRun)
 * instead of hanging the search (explicit TestReductionsKeepVerdicts). Both
 * processes can be in the critical section at once, so reach_error is
 * reachable. */
#include <pthread.h>

void reach_error(void);

int flag1, flag2, turn, x;

void *thr1(void *arg) {
  flag1 = 1;
  turn = 1;
  int f = flag2, t = turn;
  do {
  } while (f == 1 && t == 1);
  x = 0;
  if (x > 0)
    reach_error();
  flag1 = 0;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thr1, 0);
  flag2 = 1;
  turn = 0;
  int f = flag1, tt = turn;
  do {
  } while (f == 1 && tt == 0);
  x = 1;
  if (x < 1)
    reach_error();
  flag2 = 0;
  pthread_join(t, 0);
  return 0;
}
