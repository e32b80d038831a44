/* Pointers converted to integers: non-zero (also in their low 32 bits) for
   every non-null pointer, round-tripping, aligned as malloc aligns, with
   integer differences equal to byte distances, and SV-COMP's
   assume_abort_if_not(p) on a malloc'd p. Output never shows an address. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static void assume_abort_if_not(int cond) { if (!cond) abort(); }

struct node { int v; struct node *next; };
static int global_arr[10];

int main(void) {
  int ok = 1;
  void *ps[20];
  for (int i = 0; i < 20; i++) {
    ps[i] = malloc((size_t)(i * 8 + 1));
    assume_abort_if_not(ps[i] != 0);
    assume_abort_if_not((int)(intptr_t)ps[i]);
    uintptr_t u = (uintptr_t)ps[i];
    ok &= u != 0 && (uint32_t)u != 0 && u % 16 == 0;
    ok &= (void *)u == ps[i];
  }
  printf("malloc'd pointers ok %d\n", ok);
  int local[8];
  uintptr_t a = (uintptr_t)&local[1], b = (uintptr_t)&local[6];
  printf("distance %ld\n", (long)(b - a));
  int *back = (int *)(a + 2 * sizeof(int));
  *back = 77;
  printf("through round trip %d\n", local[3]);
  uintptr_t g = (uintptr_t)global_arr;
  printf("global nonzero %d aligned %d\n", g != 0 && (uint32_t)g != 0, g % 4 == 0);
  printf("null %d\n", (uintptr_t)(void *)0 == 0);
  struct node n2 = {2, 0}, n1 = {1, &n2};
  uintptr_t x = (uintptr_t)n1.next ^ 0x5a5a;
  struct node *q = (struct node *)(x ^ 0x5a5a);
  printf("xor link %d\n", q->v);
  uintptr_t tagged = (uintptr_t)&n1 | 1;
  struct node *untagged = (struct node *)(tagged & ~(uintptr_t)1);
  printf("tagged %d %d\n", (int)(tagged & 1), untagged->v);
  printf("ordered %d\n", (uintptr_t)&local[0] < (uintptr_t)&local[7]);
  for (int i = 0; i < 20; i++) free(ps[i]);
  return 0;
}
