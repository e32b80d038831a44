/* race_printf_prec.c -- printf("%.2s") reads buf[0..1] only while another thread writes buf[3]: no race; the other thread's strcpy into buf + 3 writes buf[3..4].
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char buf[8] = "hello";

void *ta(void *x) {
  printf("%.2s\n", buf);
  return 0;
}

void *tb(void *x) {
  strcpy(buf + 3, "p");
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
