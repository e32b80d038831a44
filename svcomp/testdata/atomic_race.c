// One write of x inside an atomic section, one plain. DataRace holds in
// the state where the section is about to write while main is about to
// write too (main cannot step until the section ends). Tools read that
// differently, so verify claims no race there (Goal.Classify) and, the
// racy state being reachable, no proof either: UNKNOWN.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *a(void *p) {
  __VERIFIER_atomic_begin();
  x = 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, a, 0);
  x = 2;
  pthread_join(t, 0);
  return 0;
}
