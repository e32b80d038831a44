/* race_memset_mutex.c -- memset and a load of the same bytes, both under one mutex: no race (twin of race_memset.c).
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char g[8];
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

void *ta(void *x) {
  pthread_mutex_lock(&mu);
  memset(g, 1, 4);
  pthread_mutex_unlock(&mu);
  return 0;
}

void *tb(void *x) {
  pthread_mutex_lock(&mu);
  char v = g[2];
  pthread_mutex_unlock(&mu);
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
