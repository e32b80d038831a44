/* gossip.h -- shared body of gossip_N.c; each program defines its parameters first. */
#include <pthread.h>
#include <stdio.h>
#include "wyvern.h"

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
