/* peterson.h -- shared body of petersons.c and petersonsBug.c; each program defines its parameters first. */
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
  *(opt->mflag) = OWN_FLAG;
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
