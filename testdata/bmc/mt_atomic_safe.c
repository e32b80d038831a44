/* Safe (threads, __VERIFIER_atomic_): claiming an owner (check and set) and
 * incrementing a counter inside __VERIFIER_atomic_* functions, and adding to
 * a total inside __VERIFIER_atomic_begin/end, cannot interleave: exactly one
 * owner, counter == 2, total == 3. Threaded and safe: incomplete. */
#include <assert.h>
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int owner = 0, counter = 0, total = 0, claims = 0;

void __VERIFIER_atomic_claim(int id) {
  if (owner == 0) {
    owner = id;
    claims++;
  }
}

void __VERIFIER_atomic_incr(void) {
  int t = counter;
  counter = t + 1;
}

void *worker(void *arg) {
  int id = (int)(long)arg;
  __VERIFIER_atomic_claim(id);
  __VERIFIER_atomic_incr();
  __VERIFIER_atomic_begin();
  int t = total;
  total = t + id;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)1L);
  pthread_create(&b, 0, worker, (void *)2L);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(claims == 1 && (owner == 1 || owner == 2));
  assert(counter == 2 && total == 3);
  return 0;
}
