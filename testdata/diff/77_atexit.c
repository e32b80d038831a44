/* Tests atexit: exit() calls the handlers the last registered first, each once, with main's and
   the callers' frames still there; a handler may register another, which is then called too; the
   exit code is exit's argument. */
#include <stdio.h>
#include <stdlib.h>

static int *counter;
static int order[8], n;

static void first(void) {
  order[n++] = 1;
  printf("first: counter %d, order", *counter);
  for (int i = 0; i < n; i++) printf(" %d", order[i]);
  printf("\n");
  free(counter);
}
static void late(void) { order[n++] = 4; printf("late\n"); }
static void second(void) {
  order[n++] = 2;
  printf("second registers late: %d\n", atexit(late));
}
static void third(void) { order[n++] = 3; (*counter)++; printf("third\n"); }

static void deep(int k) {
  if (k == 0) {
    printf("exit from deep\n");
    exit(*counter + 40);
  }
  deep(k - 1);
}

int main(void) {
  counter = malloc(sizeof *counter);
  *counter = 1;
  printf("%d", atexit(first));
  printf(" %d", atexit(second));
  printf(" %d", atexit(third));
  printf(" %d\n", atexit(third));
  deep(3);
  printf("not reached\n");
  return 0;
}
