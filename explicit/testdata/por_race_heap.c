/* por_race_heap.c -- a race through a pointer main hands to both threads
 * (a heap block, so every other process's accesses through pointers may
 * meet it), after steps on blocks of their own. */
#include <pthread.h>
#include <stdlib.h>

#define N 3

void *worker(void *arg) {
  int *shared = arg;
  int local[N];
  for (int i = 0; i < N; i++)
    local[i] = i * i;
  int *mine = malloc(sizeof(int));
  if (!mine)
    return 0;
  *mine = local[N - 1];
  *shared = *mine; /* both threads write: a race */
  free(mine);
  return 0;
}

int main(void) {
  int *shared = malloc(sizeof(int));
  if (!shared)
    return 0;
  *shared = 0;
  pthread_t a, b;
  pthread_create(&a, 0, worker, shared);
  pthread_create(&b, 0, worker, shared);
  pthread_join(a, 0);
  pthread_join(b, 0);
  free(shared);
  return 0;
}
