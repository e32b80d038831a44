// expect: unsafe
// An assume of a global's condition, which a thread changes after it.
#include <pthread.h>
extern void reach_error(void);
extern void abort(void);
int g;
void as(int c) {
  if (!c)
    abort();
}
void *thr(void *p) {
  g = -7;
  return 0;
}
int main(void) {
  pthread_t t;
  g = 5;
  pthread_create(&t, 0, thr, 0);
  as(g > 0);
  if (g < 0)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
