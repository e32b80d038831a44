/* race_memset_disjoint.c -- two threads memset disjoint halves of one array, then each reads its own half: no race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char g[8];

void *ta(void *x) {
  memset(g, 1, 4);
  char v = g[3];
  return (void *)(long)v;
  return 0;
}

void *tb(void *x) {
  memset(g + 4, 2, 4);
  char v = g[4];
  return (void *)(long)v;
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
