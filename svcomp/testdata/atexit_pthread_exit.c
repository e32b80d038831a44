// main ends with pthread_exit: the exit handlers run once the last thread
// has ended (POSIX: as if exit(0) were called then), and check finds
// ran == 2, a bug. A wrong TRUE while the handlers did not run after
// pthread_exit.
#include <pthread.h>
#include <stdlib.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "atexit_pthread_exit.c", 11, "reach_error"); }
int ran;
void fa(void) { ran++; }
void fb(void) { ran++; }
void check(void) {
  if (ran == 2)
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
  pthread_exit(0);
}
