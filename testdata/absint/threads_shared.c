// expect: proved
// Two threads store into a shared variable under a mutex; each reads it
// back: whatever the interleaving, it holds one of the stored values.
#include <pthread.h>
extern void reach_error(void);
int g;
pthread_mutex_t m;
void *worker(void *arg) {
  int k = *(int *)arg;
  pthread_mutex_lock(&m);
  g = k * 3;
  int v = g;
  pthread_mutex_unlock(&m);
  if (v < 0 || v > 30)
    reach_error();
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  int a1 = 4, a2 = 10;
  pthread_mutex_init(&m, 0);
  pthread_create(&t1, 0, worker, &a1);
  pthread_create(&t2, 0, worker, &a2);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (g > 30)
    reach_error();
  return 0;
}
