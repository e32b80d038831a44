/* Two processes that make non-blocking platform calls while both are
 * enabled: draws (quiet: they change only the call's result), malloc, free
 * and printf (not quiet: a scheduler must treat them as scheduling points
 * for observers). main joins both and prints the shared total. Used by the
 * vm scheduler tests (the enabled set and the states an observer sees must
 * not depend on how the scheduler loop is run). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "wyvern.h"

int total = 0;

void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < 4; i++) {
    int k = wyvern_uniform(1, 3);
    int *p = malloc(sizeof(int) * k);
    for (int j = 0; j < k; j++)
      p[j] = j + (int)id;
    total += p[k - 1];
    free(p);
    if (k == 3)
      printf("%ld", id);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  printf("\ntotal %d\n", total);
  return 0;
}
