// Two threads increment a shared counter without a lock; main checks the
// sum after joining them: an update can be lost.
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "lost_update.c", 5, "reach_error"); }
int counter;
void *inc(void *arg) {
  int t = counter;
  counter = t + 1;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, inc, 0);
  pthread_create(&t2, 0, inc, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (counter != 2) {
    reach_error();
  }
  return 0;
}
