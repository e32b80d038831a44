/* fib.h -- shared body of fib_N.c; each program defines its parameters first. */
#include <pthread.h>

#ifdef WYVERN_MEASURE
void reach_error(void);
#endif

__attribute__((noinline)) void VERIFIER_error(void) {
#ifdef WYVERN_MEASURE
  reach_error();
#endif
}

int i = 1, j = 1;

void *t1(void *arg) {
  int k = 0;
  for (k = 0; k < NUM; k++)
    i += j;
  pthread_exit(NULL);
}

void *t2(void *arg) {
  int k = 0;
  for (k = 0; k < NUM; k++)
    j += i;
  pthread_exit(NULL);
}

int main(int argc, char **argv) {
  pthread_t id1, id2;
  pthread_create(&id1, NULL, t1, NULL);
  pthread_create(&id2, NULL, t2, NULL);
  pthread_join(id1, NULL);
  pthread_join(id2, NULL);
  if (i == EXPECTED || j == EXPECTED) {
  ERROR:
    VERIFIER_error();
  }
  return 0;
}
