/* race_blind.c -- a thread's strtol reads buf while another writes buf[0]:
 * a race through a platform function whose accesses DataRace does not see
 * (strtol: vm.RaceSees), so a search that finds no race proves nothing. */
#include <pthread.h>
#include <stdlib.h>

char buf[8] = "12";

void *ta(void *x) {
  return (void *)strtol(buf, 0, 10);
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
