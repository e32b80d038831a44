// Two threads alternate atomic sections, as SV-COMP's fib_bench: the error
// needs the strict alternation t1 t2 t1 t2 t1 t2 before main's check (j
// reaches 21 only then). __VERIFIER_atomic_begin/end are declared without a
// prototype, as in SV-COMP's files, so clang (under ILP32) calls them through a constant
// function pointer. Before 2026-11-28 the round-robin encoding had no switch
// point before such a call: it never switched between two sections, found
// nothing in any number of rounds, and --rounds-only --complete answered
// not-satisfied. Reachable (explicit search: satisfied).
#include <pthread.h>

extern void __VERIFIER_error() __attribute__((__noreturn__));
extern void __VERIFIER_atomic_begin();
extern void __VERIFIER_atomic_end();

int i = 1, j = 1;

void *t1(void *arg) {
  for (int k = 0; k < 3; k++) {
    __VERIFIER_atomic_begin();
    i += j;
    __VERIFIER_atomic_end();
  }
  return 0;
}

void *t2(void *arg) {
  for (int k = 0; k < 3; k++) {
    __VERIFIER_atomic_begin();
    j += i;
    __VERIFIER_atomic_end();
  }
  return 0;
}

int main(void) {
  pthread_t id1, id2;
  pthread_create(&id1, 0, t1, 0);
  pthread_create(&id2, 0, t2, 0);
  __VERIFIER_atomic_begin();
  int big = i >= 21 || j >= 21;
  __VERIFIER_atomic_end();
  if (big)
    __VERIFIER_error();
  return 0;
}
