// The shape of SV-COMP's indexer (13 threads, ids in an array filled and
// joined by counted loops, mutexes indexed by a computed hash): too many
// interleavings for explicit search, proved by abstract interpretation.
#include <pthread.h>
extern void reach_error(void);
#define N 13
#define SIZE 64
int table[SIZE];
pthread_mutex_t mtx[SIZE];
pthread_t tids[N];
int cas(int *tab, int h, int val, int new_val) {
  int ret = 0;
  pthread_mutex_lock(&mtx[h]);
  if (tab[h] == val) {
    tab[h] = new_val;
    ret = 1;
  }
  pthread_mutex_unlock(&mtx[h]);
  return ret;
}
void *worker(void *arg) {
  int tid = *(int *)arg;
  int w = tid * 5 + 1;
  int h = (w * 7) % SIZE;
  if (h < 0)
    reach_error();
  while (cas(table, h, 0, w) == 0)
    h = (h + 1) % SIZE;
  return 0;
}
int main(void) {
  int i, arg;
  for (i = 0; i < SIZE; i++)
    pthread_mutex_init(&mtx[i], 0);
  for (i = 0; i < N; i++) {
    arg = i;
    pthread_create(&tids[i], 0, worker, &arg);
  }
  for (i = 0; i < N; i++)
    pthread_join(tids[i], 0);
  for (i = 0; i < SIZE; i++)
    pthread_mutex_destroy(&mtx[i]);
  return 0;
}
