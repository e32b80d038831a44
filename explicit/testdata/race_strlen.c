/* race_strlen.c -- a thread's strlen reads s up to its NUL (s[3]) while another writes s[2]: a race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char s[8] = "abc";

void *ta(void *x) {
  return (void *)strlen(s);
  return 0;
}

void *tb(void *x) {
  s[2] = 'x';
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
