// wyvern-diff: seeds=1,2,3,4,5
/* Thread-local variables (__thread, _Thread_local): every thread starts
   from the initialiser with its own copy (scalars, arrays, structs, a
   static local), main's copy is unaffected, and a pointer to a thread's
   copy handed to main designates that copy. */
#include <stdio.h>
#include <pthread.h>

#define N 3
static __thread int counter = 100;
static _Thread_local long hist[4] = {1, 2, 3, 4};
struct acc { int n; char tag; };
static __thread struct acc acc = {0, 'a'};
static long result[N][4];
static int *where[N];

static int bump(void) {
  static __thread int calls;
  return ++calls;
}

static void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i <= id; i++) { counter += 10; hist[i % 4] *= 2; bump(); }
  acc.n += (int)id;
  acc.tag = (char)('a' + id);
  where[id] = &counter;
  result[id][0] = counter;
  result[id][1] = hist[0] + hist[1] + hist[2] + hist[3];
  result[id][2] = acc.n * 100 + acc.tag;
  result[id][3] = bump();
  return 0;
}

int main(void) {
  pthread_t t[N];
  counter = 5;
  for (long i = 0; i < N; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < N; i++)
    printf("thread %d: counter %ld hist %ld acc %ld calls %ld via pointer %d\n", i, result[i][0], result[i][1],
           result[i][2], result[i][3], *where[i]);
  printf("main: counter %d hist %ld %ld acc %d %c calls %d\n", counter, hist[0], hist[3], acc.n, acc.tag, bump());
  printf("distinct copies %d\n", where[0] != where[1] && where[1] != where[2] && where[0] != &counter);
  return 0;
}
