/* race_memcpy_dst.c -- a thread's memcpy writes dst[0..3] while another reads dst[1]: a race.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char src[8], dst[8];

void *ta(void *x) {
  memcpy(dst, src, 4);
  return 0;
}

void *tb(void *x) {
  char v = dst[1];
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
