/* race_printf_mutex.c -- printf("%s") of buf and a write of buf[1], both under one mutex: no race (twin of race_printf.c).
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char buf[8] = "hi";
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

void *ta(void *x) {
  pthread_mutex_lock(&mu);
  printf("%s\n", buf);
  pthread_mutex_unlock(&mu);
  return 0;
}

void *tb(void *x) {
  pthread_mutex_lock(&mu);
  buf[1] = 'o';
  pthread_mutex_unlock(&mu);
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
