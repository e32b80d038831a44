/* A mutex released by a plain store (not pthread_mutex_unlock) while main
 * waits to lock it: whether main is enabled changes at a step that is no
 * platform call. The scheduler must see the change at once (vm
 * TestSchedulerMatchesReference). */
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t1(void *a) {
  pthread_mutex_lock(&m);
  for (int i = 0; i < 5; i++) x++;
  *(volatile int *)&m = 0; /* releases the lock by a plain store */
  for (int i = 0; i < 5; i++) x++;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  for (int i = 0; i < 3; i++) x--;
  pthread_mutex_lock(&m);
  x = 100;
  pthread_join(a, 0);
  return x;
}
