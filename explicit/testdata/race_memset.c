/* race_memset.c -- a thread's memset races with another thread's load of
 * the same bytes. Before 2026-11-28 DataRace looked at loads and stores
 * only and verify answered TRUE for no-data-race; then the search ended
 * incomplete (explicit.raceBlind); now DataRace sees memset's writes
 * (vm/race.go) and the race is found. */
#include <pthread.h>
#include <string.h>

char g[8];

void *writer(void *x) {
  memset(g, 1, 4);
  return 0;
}

void *reader(void *x) {
  char v = g[2];
  return (void *)(long)v;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
