// The same increments under a mutex: the sum is always 2.
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "mutex_safe.c", 5, "reach_error"); }
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *inc(void *arg) {
  pthread_mutex_lock(&m);
  int t = counter;
  counter = t + 1;
  pthread_mutex_unlock(&m);
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
