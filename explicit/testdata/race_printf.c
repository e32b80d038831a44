/* race_printf.c -- a thread's printf("%s") reads buf while another writes buf[1]: a race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char buf[8] = "hi";

void *ta(void *x) {
  printf("%s\n", buf);
  return 0;
}

void *tb(void *x) {
  buf[1] = 'o';
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
