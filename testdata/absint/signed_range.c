// expect: proved
// Signed ranges across 0 (signed constraints): a char read as an int is
// in [-128, 127], min(x, 10) is at most 10 whatever x's sign, through a
// global a thread reads too, and a sum of two such ranges stays in range.
#include <pthread.h>
extern signed char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void reach_error(void);
int g;
void *worker(void *arg) {
  int v = g;
  if (v > 10)
    reach_error();
  return 0;
}
int main(void) {
  int x = __VERIFIER_nondet_char();
  if (x < -128 || x > 127)
    reach_error();
  int r;
  if (10 >= x)
    r = x;
  else
    r = 10;
  g = r;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (r > 10)
    reach_error();
  int y = __VERIFIER_nondet_bool() * 12 - 5; // -5 or 7
  if (y < -5 || y > 7)
    return 0;
  int z = y + r; // [-133, 17]
  if (z > 17 || z < -133)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
