// Exit handlers registered by two threads at once: both run exactly once
// when main returns, so check finds ran == 2. A wrong FALSE while atexit's
// table was updated without a lock (a lost registration).
#include <pthread.h>
#include <stdlib.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "atexit_threads.c", 11, "reach_error"); }
int ran;
void fa(void) { ran++; }
void fb(void) { ran++; }
void check(void) {
  if (ran != 2)
    reach_error();
}
void *worker(void *arg) {
  atexit(fb);
  return 0;
}
int main(void) {
  atexit(check);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  atexit(fa);
  pthread_join(t, 0);
  return 0;
}
