// wyvern-diff: seeds=1,2,3,4,5
/* Thread-specific data: pthread_key_create/getspecific/setspecific/delete.
   Each thread sees its own value of a key (NULL until it sets one), main's
   value is unaffected by the threads', a deleted key is reused (lowest
   free first) and starts NULL; free as destructor is accepted. */
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>

#define N 4
static pthread_key_t k1, k2;
static long seen[N][3];

static void *worker(void *arg) {
  long id = (long)arg;
  seen[id][0] = pthread_getspecific(k1) == NULL;
  pthread_setspecific(k1, (void *)(id * 10 + 1));
  long *p = malloc(sizeof *p);
  *p = id * 100;
  pthread_setspecific(k2, p);
  sched_yield();
  seen[id][1] = (long)pthread_getspecific(k1);
  seen[id][2] = *(long *)pthread_getspecific(k2);
  free(p);
  pthread_setspecific(k2, NULL);
  return 0;
}

int main(void) {
  printf("create %d %d\n", pthread_key_create(&k1, NULL), pthread_key_create(&k2, free));
  printf("keys distinct %d\n", k1 != k2);
  pthread_setspecific(k1, (void *)7L);
  pthread_t t[N];
  for (long i = 0; i < N; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++) printf("thread %d: fresh %ld own %ld heap %ld\n", i, seen[i][0], seen[i][1], seen[i][2]);
  printf("main still %ld\n", (long)pthread_getspecific(k1));
  pthread_key_t old = k1;
  printf("delete %d\n", pthread_key_delete(k1));
  pthread_key_t k3;
  pthread_key_create(&k3, NULL);
  printf("reused %d, starts null %d\n", k3 == old, pthread_getspecific(k3) == NULL);
  printf("set on k3 %d -> %ld\n", pthread_setspecific(k3, (void *)3L), (long)pthread_getspecific(k3));
  return 0;
}
