/* Bug (threads, rare interleaving): A stores x = 1 then y = 1. B samples the
 * pair 8 times and reaches the error only if every sample saw x == 1 and
 * y == 0, i.e. if all of B's loop (about 100 instructions) runs while A sits
 * between its two stores. Under the vm's uniform per-instruction scheduler
 * that has probability about 2^-100; with bounded context switches it is
 * main -> A (x = 1) -> B (whole loop): 2 switches, unwind 8. */
#include <pthread.h>
void reach_error(void);

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

volatile int x = 0, y = 0;

void *thread_a(void *arg) {
  W_BEGIN(0);
  x = 1;
  W_END();
  W_BEGIN(2);
  y = 1;
  return arg;
}

void *thread_b(void *arg) {
  W_BEGIN(1);
  int seen = 0;
  for (int i = 0; i < 8; i++)
    if (x == 1 && y == 0)
      seen++;
  if (seen == 8)
    reach_error();
  W_END();
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, thread_a, 0);
  pthread_create(&b, 0, thread_b, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
