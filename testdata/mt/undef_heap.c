// Two threads read heap memory they never wrote (vm/undef.go): each load
// of undefined bytes draws them, and later loads agree; realloc keeps
// undefined bytes undefined and adds more; memcpy carries them over.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned char *shared;

void *worker(void *arg) {
  int k = *(int *)arg;
  unsigned char *b = malloc(6);
  if (!b)
    return 0;
  b[0] = (unsigned char)k;
  unsigned short h = *(unsigned short *)b; // draws b[1]
  unsigned char c = shared[k];             // draws shared[k], unless written
  shared[k + 2] = c;
  unsigned char *g = realloc(b, 10);
  if (!g)
    return 0;
  unsigned char again = g[1]; // agrees with h's high byte
  printf("%d:%d %d %d\n", k, h >> 8 == again, c == shared[k + 2], g[7] ^ g[7]);
  memcpy(g + 8, g + 2, 2); // g[2], g[3] still undefined: so are g[8], g[9]
  int x = g[8] + g[9];
  free(g);
  return (void *)(long)(x & 1);
}

int main(void) {
  shared = malloc(8);
  if (!shared)
    return 1;
  pthread_t t[2];
  int ids[2] = {0, 1};
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, &ids[i]);
  shared[1] = 9;
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  printf("%d\n", shared[0] == shared[2]);
  free(shared);
  return 0;
}
