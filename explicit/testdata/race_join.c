/* race_join.c -- main's pthread_join stores thread a's result in the
 * global res while thread b reads res: a race (DataRace sees the join's
 * store, vm/race.go). */
#include <pthread.h>

void *res;

void *ta(void *x) { return (void *)1; }

void *tb(void *x) { return res; }

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, ta, 0);
  pthread_create(&b, 0, tb, 0);
  pthread_join(a, &res);
  pthread_join(b, 0);
  return 0;
}
