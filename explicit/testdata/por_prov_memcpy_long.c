/* por_prov_memcpy_long.c -- each thread copies a pointer to a local
 * variable into a long with memcpy and keeps its high half, the block id
 * (no ptrtoint). reach_error (a above b) is reachable under every
 * reduction. */
#include <assert.h>
#include <pthread.h>
#include <string.h>

void reach_error(void) { assert(0); }

unsigned long ha, hb;

void *ta(void *x) {
  int a;
  int *p = &a;
  unsigned long n;
  memcpy(&n, &p, sizeof n);
  ha = n >> 32;
  return 0;
}

void *tb(void *x) {
  int b;
  int *p = &b;
  unsigned long n;
  memcpy(&n, &p, sizeof n);
  hb = n >> 32;
  return 0;
}

int main(void) {
  pthread_t y, z;
  pthread_create(&y, 0, ta, 0);
  pthread_create(&z, 0, tb, 0);
  pthread_join(y, 0);
  pthread_join(z, 0);
  if (ha > hb)
    reach_error();
  return 0;
}
