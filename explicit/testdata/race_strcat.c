/* race_strcat.c -- a thread's strcat reads d up to its NUL and writes over it while another reads d[2]: a race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char d[8] = "ab";

void *ta(void *x) {
  strcat(d, "c");
  return 0;
}

void *tb(void *x) {
  char v = d[2];
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
