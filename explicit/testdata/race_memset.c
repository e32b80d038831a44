/* race_memset.c -- a thread's memset races with another thread's load of
 * the same bytes. DataRace looks at loads and stores only, so a search
 * that finds no race here proves nothing (before 2026-11-28 verify
 * answered TRUE for no-data-race). */
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
