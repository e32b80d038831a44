/* por_race_const.c -- a race on constant memory: the writer's store to k
 * (an error: k is constant) and the reader's load of k overlap. The
 * reader's load is independent of every other step but the writer's
 * store, and the writer's earlier step touches g, which the reader reads
 * after k (atomically: the only race is on k), and main creates the reader first: a reduction that took loads
 * of constants for independent of everything would let the reader pass k
 * alone once both run and miss the race. */
#include <pthread.h>

static const int k = 1;
int g, seen;

void *writer(void *arg) {
  __atomic_store_n(&g, 1, __ATOMIC_SEQ_CST);
  *(volatile int *)&k = 2;
  return 0;
}

void *reader(void *arg) {
  seen = *(volatile const int *)&k;
  seen += __atomic_load_n(&g, __ATOMIC_SEQ_CST);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&b, 0, reader, 0);
  pthread_create(&a, 0, writer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
