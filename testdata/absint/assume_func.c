// expect: proved
// SV-COMP's assume_abort_if_not(cond): a call that returns only when its
// argument is non-zero refines the condition, && included, in the caller
// (a thread's), as __VERIFIER_assume does (offset % 2 == 0 refines
// nothing: offset is in [0, 5]).
#include <pthread.h>
extern signed char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void abort(void);
extern void reach_error(void);
void assume_abort_if_not(int cond) {
  if (!cond)
    abort();
}
int storage[7];
void *thr(void *arg) {
  int offset = __VERIFIER_nondet_char();
  assume_abort_if_not(offset % 2 == 0 && offset >= 0 && offset < 6);
  for (int i = offset; i < offset + 2; i++)
    storage[i] = i;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thr, 0);
  int x = __VERIFIER_nondet_bool() * 5 - 1; // -1 or 4
  assume_abort_if_not(x > 3);
  if (x <= 3)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
