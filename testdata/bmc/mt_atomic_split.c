/* Bug (threads, check and act in two atomic sections): each section is
 * atomic, but another thread can run between the check and the take, so both
 * threads take the resource. Schedule: main -> T1 checks -> T2 checks and
 * takes -> T1 takes, sees 2 holders: 3 switches. */
#include <pthread.h>
void reach_error(void);

#ifndef BMC_HARNESS
#define W_BEGIN(n)
#define W_END()
#endif

int owner = 0, holders = 0;

int __VERIFIER_atomic_is_free(void) { return owner == 0; }

void __VERIFIER_atomic_take(int id) {
  owner = id;
  holders++;
}

void *worker(void *arg) {
  int id = (int)(long)arg;
  W_BEGIN(id == 1 ? 0 : 1);
  if (__VERIFIER_atomic_is_free()) {
    if (id == 1) { W_END(); W_BEGIN(2); }
    __VERIFIER_atomic_take(id);
    if (holders > 1)
      reach_error();
  }
  W_END();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
