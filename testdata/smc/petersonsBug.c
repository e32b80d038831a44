/* petersonsBug.c -- Wyvern's version of the Peterson benchmark of the LODIN / Plasma-Lab SMC
 * paper (seed 003, Section 5.2 and Listing 1.3), BUGGY version: as in
 * the paper, petersons1 sets its own flag to 0 instead of 1 (so petersons2 never waits
 * for it) and mutual exclusion can be violated.
 *
 * Program: two threads, petersons1 (process 1) and petersons2 (process 2), each try once
 * to enter a critical section, abstracted as a call to the (defined, noinline, empty)
 * function crit(). They communicate through a shared array flags[2] and a variable turn,
 * reached through an Options struct of pointers. main (process 0) joins both.
 *
 * Property: both processes are about to call crit at the same time (LODIN's
 * propositions [1.crit], [2.crit]):
 *     Pr[<=5000](<> ([1.crit] && [2.crit]))
 * LODIN (Table 1): 816 satisfying runs of 10870, CI [0.07, 0.08].
 *
 * Measurement build (-DWYVERN_MEASURE): crit() keeps a shared count of processes inside
 * it and calls the undefined reach_error() (error state ReachError) when the count
 * reaches 2. This is an approximation of the query: crit's body then has a few extra
 * instructions, which widens the window in which the two calls overlap.
 */
#include <pthread.h>

#ifdef WYVERN_MEASURE
void reach_error(void);
int inside = 0;
#endif

__attribute__((noinline)) void crit(void) {
#ifdef WYVERN_MEASURE
  inside++;
  if (inside == 2)
    reach_error();
  inside--;
#endif
}

typedef struct {
  int *mflag;
  int *oflag;
  int *turn;
} Options;

void *petersons1(void *opti) {
  Options *opt = (Options *)opti;
  *(opt->mflag) = 0;  /* BUG: should be 1 */
  *(opt->turn) = 1;
  while (*(opt->oflag) && *(opt->turn) == 1) {
    /* busy wait */
  }
  /* critical section */
  crit();
  /* end of critical section */
  *(opt->mflag) = 0;
  return 0;
}

void *petersons2(void *opti) {
  Options *opt = (Options *)opti;
  *(opt->mflag) = 1;
  *(opt->turn) = 0;
  while (*(opt->oflag) && *(opt->turn) == 0) {
    /* busy wait */
  }
  /* critical section */
  crit();
  /* end of critical section */
  *(opt->mflag) = 0;
  return 0;
}

int main(void) {
  int flags[2] = {0, 0};
  int turn = 0;
  Options opt1, opt2;
  opt1.mflag = &flags[0];
  opt1.oflag = &flags[1];
  opt1.turn = &turn;
  opt2.mflag = &flags[1];
  opt2.oflag = &flags[0];
  opt2.turn = &turn;

  pthread_t t1, t2;
  pthread_create(&t1, 0, petersons1, &opt1);
  pthread_create(&t2, 0, petersons2, &opt2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
