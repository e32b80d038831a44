/* A pointer converted to int directly (ptrtoint to i32 at -O0, through a
   64-bit integer at -O1) is non-zero for every non-null pointer, as
   natively: SV-COMP's assume_abort_if_not(p) on a malloc'd p. */
#include <stdio.h>
#include <stdlib.h>

static void assume_abort_if_not(int cond) { if (!cond) abort(); }

int g[4];

int main(void) {
  for (int i = 0; i < 8; i++) {
    void *p = malloc((size_t)(i + 1));
    assume_abort_if_not((int)p);
    free(p);
  }
  int local = 0;
  printf("nonzero %d %d %d\n", (int)(void *)g != 0, (int)(void *)&local != 0, (int)(void *)0 == 0);
  return 0;
}
