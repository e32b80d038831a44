/* por_race_stack.c -- threads that fill arrays on their own stacks (blocks
 * no other process can reach: their addresses are only offset) before a
 * racy update of a global, and a locked one. The arrays' accesses are
 * independent of every other step: partial-order reduction takes them
 * alone and still finds the race on racy. */
#include <pthread.h>

#define N 3

int racy, locked;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = i;
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  pthread_mutex_lock(&m);
  locked += sum;
  pthread_mutex_unlock(&m);
  racy = sum;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
