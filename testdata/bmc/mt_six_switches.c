/* Bug (threads, a specific interleaving with many context switches): A and B
 * advance a shared stage s only in strict alternation, A: 0->1, 2->3, 4->5 and
 * B: 1->2, 3->4, then B reaches the error when it sees 5. Every step needs the
 * other thread's previous one, so the schedule is main -> A -> B -> A -> B ->
 * A -> B: 6 switches, of which the 4 A/B handovers in the middle preempt a
 * thread that could go on. Fewer switches cannot reach the error. */
#include <pthread.h>
void reach_error(void);

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

volatile int s = 0;

void *thread_a(void *arg) {
  W_BEGIN(0);
  s = 1;
  W_END();
  W_BEGIN(2);
  if (s == 2)
    s = 3;
  W_END();
  W_BEGIN(4);
  if (s == 4)
    s = 5;
  W_END();
  return arg;
}

void *thread_b(void *arg) {
  W_BEGIN(1);
  if (s == 1)
    s = 2;
  W_END();
  W_BEGIN(3);
  if (s == 3)
    s = 4;
  W_END();
  W_BEGIN(5);
  if (s == 5)
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
