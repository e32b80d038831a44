/* por_prov_struct_copy.c -- each thread puts a pointer to a local variable
 * in a struct, copies the struct as a whole, and reads the copy's pointer
 * field back as an integer by its offset (no ptrtoint). reach_error (a
 * above b) is reachable under every reduction. */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

void reach_error(void) { assert(0); }

struct s {
  int k;
  int *p;
};

uintptr_t ua, ub;

void *ta(void *x) {
  int a;
  struct s v = {1, &a}, w;
  w = v;
  ua = *(uintptr_t *)((char *)&w + offsetof(struct s, p));
  return 0;
}

void *tb(void *x) {
  int b;
  struct s v = {2, &b}, w;
  w = v;
  ub = *(uintptr_t *)((char *)&w + offsetof(struct s, p));
  return 0;
}

int main(void) {
  pthread_t y, z;
  pthread_create(&y, 0, ta, 0);
  pthread_create(&z, 0, tb, 0);
  pthread_join(y, 0);
  pthread_join(z, 0);
  if (ua > ub)
    reach_error();
  return 0;
}
