/* Address reuse and the reductions: a comparison of a new block with a
 * freed one reads and writes the freed block's reuse state (vm/reuse.go).
 * main's g == old, taken first, closes t2's h == old (its tails coin raises
 * old's bound past g, whose id is above h's), so the assertion fails only
 * when t2 compares first: a reduction that took main's comparison alone
 * (an empty footprint) answered not-satisfied. */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *old, *h, *g;
int x;

void *t2(void *a) {
  if (h == old)
    assert(0);
  return 0;
}

int main(void) {
  old = malloc(4);
  free(old);
  h = malloc(4);
  g = malloc(4);
  pthread_t b;
  pthread_create(&b, 0, t2, 0);
  if (g == old)
    x = 1;
  pthread_join(b, 0);
  free(h);
  free(g);
  return 0;
}
