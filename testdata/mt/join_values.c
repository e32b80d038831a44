/* Property: pthread_join delivers the value a thread returns from its start
 * routine and the value it passes to pthread_exit (here from a nested call,
 * so the rest of the thread never runs). main prints both values and exits
 * with 0 if they are right, and reach_error() is never called. */
#include <pthread.h>
#include <stdio.h>

void reach_error(void);

int after_exit = 0;

void *returner(void *arg) {
  long v = (long)arg;
  return (void *)(v * 6);
}

void leave(long v) {
  pthread_exit((void *)(v + 1));
}

void *exiter(void *arg) {
  leave((long)arg);
  after_exit = 1; /* never reached */
  return (void *)-1;
}

int main(void) {
  pthread_t a, b;
  void *ra = 0, *rb = 0;
  pthread_create(&a, 0, returner, (void *)7L);
  pthread_create(&b, 0, exiter, (void *)99L);
  pthread_join(b, &rb);
  pthread_join(a, &ra);
  printf("returned %ld, exited %ld\n", (long)ra, (long)rb);
  if ((long)ra != 42 || (long)rb != 100 || after_exit)
    reach_error();
  return 0;
}
