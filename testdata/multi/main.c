#include <pthread.h>
#include <stdio.h>
#include "queue.h"

#define N 2

static void *producer(void *arg) {
  int base = *(int *)arg;
  for (int i = 0; i < N; i++)
    q_push(base + i);
  return 0;
}

int main(void) {
  pthread_t a, b;
  int ba = 100, bb = 200;
  pthread_create(&a, 0, producer, &ba);
  pthread_create(&b, 0, producer, &bb);
  int sum = 0;
  for (int i = 0; i < 2 * N; i++)
    sum += q_pop();
  pthread_join(a, 0);
  pthread_join(b, 0);
  printf("sum %d\n", sum);
  return 0;
}
