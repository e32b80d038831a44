/* race_blind.c -- a thread's sscanf reads buf while another writes buf[0]:
 * a race through a platform function whose accesses DataRace does not see
 * (sscanf: vm.RaceSees), so a search that finds no race proves nothing. */
#include <pthread.h>
#include <stdio.h>

char buf[8] = "12";

void *ta(void *x) {
  int v = 0;
  sscanf(buf, "%d", &v);
  return (void *)(long)v;
}

void *tb(void *x) {
  buf[0] = '3';
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
