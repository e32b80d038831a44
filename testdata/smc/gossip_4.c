/* gossip_4.c -- Wyvern's version of the gossip benchmark of the LODIN / Plasma-Lab SMC paper
 * (seed 003, Section 5.2 and Listing 1.4, "gossip_n") with n = PROCS = 4 processes.
 *
 * Program: each of PROCS threads starts knowing one secret (bit i of its word
 * secretsKnown[i]) and repeats, until it knows all secrets (ALLKNOWN = 2^PROCS - 1):
 * write everything it knows into the mailbox commVar[r] of a uniformly chosen receiver r
 * (possibly itself), then, if its own mailbox is non-empty, OR its content into its
 * knowledge and empty the mailbox. Mailbox writes overwrite each other without any
 * synchronisation. main joins all threads, calls VERIFIER_error() if some thread does not
 * know all secrets (impossible: a thread only stops once it knows everything), and finally
 * calls VERIFIER_finished().
 *
 * The bug: a thread that has learnt everything stops and never sends again, so a thread
 * still missing its secret may wait forever (e.g. with 2 processes: thread 0 sends to
 * thread 1 before thread 1 ever sent to thread 0). Runs like that never terminate (they
 * end at the step bound); main calls VERIFIER_finished only in terminating runs.
 *
 * Property (LODIN proposition [0.VERIFIER_finished]: process 0, main, is about to call
 * VERIFIER_finished):
 *     Pr[<=5000](<> [0.VERIFIER_finished])
 * LODIN (Table 1): 8450 runs, 481 satisfying, CI [0.05, 0.06].
 *
 * With -DWYVERN_MEASURE, VERIFIER_finished() calls the undefined reach_error(), so a
 * satisfying run ends in the error state ReachError (wyvern run --json).
 */
#include <pthread.h>
#include <stdio.h>
#include "wyvern.h"

#ifndef PROCS
#define PROCS 4
#endif
#define ALLKNOWN ((1 << PROCS) - 1)

#ifdef WYVERN_MEASURE
void reach_error(void);
#endif

__attribute__((noinline)) void VERIFIER_error(void) {}

__attribute__((noinline)) void VERIFIER_finished(void) {
#ifdef WYVERN_MEASURE
  reach_error();
#endif
}

typedef struct {
  int *secret;
  int *commVars;
  int id;
} setup;

void *protocol(void *inp) {
  setup *set = (setup *)inp;
  while (*set->secret != ALLKNOWN) {
    int selectedRecv = wyvern_uniform(0, PROCS - 1); /* the paper: rand() % PROCS */
    set->commVars[selectedRecv] = *set->secret;
    if (set->commVars[set->id] != 0) {
      *set->secret |= set->commVars[set->id];
      set->commVars[set->id] = 0;
    }
  }
  return 0;
}

int main(void) {
  int secretsKnown[PROCS];
  int commVar[PROCS];
  pthread_t threads[PROCS];
  setup sets[PROCS];
  for (int i = 0; i < PROCS; i++) {
    secretsKnown[i] = 1 << i;
    commVar[i] = 0;
    sets[i].secret = &secretsKnown[i];
    sets[i].commVars = commVar;
    sets[i].id = i;
    printf("%i", secretsKnown[i]);
  }
  printf("\n");

  for (int i = 0; i < PROCS; i++)
    pthread_create(&threads[i], 0, protocol, &sets[i]);
  for (int i = 0; i < PROCS; i++)
    pthread_join(threads[i], 0);

  for (int i = 0; i < PROCS; i++) {
    if (secretsKnown[i] != ALLKNOWN)
      VERIFIER_error();
  }
  VERIFIER_finished();
  return 0;
}
