/* race_sprintf.c -- a thread's sprintf writes "7" and its NUL to out[0..1] while another reads out[1]: a race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char out[8];

void *ta(void *x) {
  sprintf(out, "%d", 7);
  return 0;
}

void *tb(void *x) {
  char v = out[1];
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
