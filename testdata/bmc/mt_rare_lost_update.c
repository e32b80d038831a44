/* Bug (threads, rare lost update): A increments the counter once (load, add,
 * store), B ten times in a loop. The final count is 1 only if A loads before
 * B's first store and stores after B's last: all of B's loop (about 80
 * instructions) inside A's two-instruction window, probability about 2^-80
 * under uniform per-instruction scheduling. Bounded: main -> A (load) -> B
 * (all, ends) -> A (store, ends) -> main: 4 switches, unwind 10. */
#include <pthread.h>
void reach_error(void);

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

int counter = 0;

void *thread_a(void *arg) {
  W_BEGIN(0);
  int tmp = counter;
  W_END();
  W_BEGIN(2);
  counter = tmp + 1;
  W_END();
  return arg;
}

void *thread_b(void *arg) {
  W_BEGIN(1);
  for (int i = 0; i < 10; i++) {
    int tmp = counter;
    counter = tmp + 1;
  }
  W_END();
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thread_a, 0);
  pthread_create(&b, 0, thread_b, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (counter == 1)
    reach_error();
  return 0;
}
