/* race_memset_overlap.c -- two threads memset overlapping ranges of one array (byte 3): a race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char g[8];

void *ta(void *x) {
  memset(g, 1, 4);
  return 0;
}

void *tb(void *x) {
  memset(g + 3, 2, 5);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, ta, 0);
  pthread_create(&b, 0, tb, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
