// expect: unsafe
// A thread stores a value that makes main's check fail.
#include <pthread.h>
extern void reach_error(void);
int g;
void *worker(void *arg) {
  g = 7;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (g == 7)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
