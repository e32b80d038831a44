/* Property: increments made inside a function named __VERIFIER_atomic_* and
 * inside a __VERIFIER_atomic_begin()/__VERIFIER_atomic_end() section run
 * without interference, so neither counter ever loses an update even though
 * no lock is used. Three threads each do N increments of both counters; main
 * prints "a=60 b=60", reach_error() is never called, and it returns a + b. */
#include <pthread.h>
#include <stdio.h>
#include "wyvern.h"

void reach_error(void);

#define NTHREADS 3
#define N 20

int a = 0, b = 0;

void __VERIFIER_atomic_inc_a(void) {
  int tmp = a;
  tmp = tmp + 1;
  a = tmp;
}

void *worker(void *arg) {
  for (int i = 0; i < N; i++) {
    __VERIFIER_atomic_inc_a();
    __VERIFIER_atomic_begin();
    int tmp = b;
    tmp = tmp + 1;
    b = tmp;
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t t[NTHREADS];
  for (int i = 0; i < NTHREADS; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < NTHREADS; i++)
    pthread_join(t[i], 0);
  printf("a=%d b=%d\n", a, b);
  if (a != NTHREADS * N || b != NTHREADS * N)
    reach_error();
  return a + b;
}
