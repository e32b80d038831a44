/* Property: two writers move units from account a to account b one at a time
 * under the write lock (the move is two separate stores, so a + b is briefly
 * off by one inside the critical section); two readers check a + b == TOTAL
 * under the read lock. Readers never observe the transient state
 * (reach_error() is never called), and at the end b == 2 * MOVES, so main
 * returns 20. */
#include <pthread.h>

void reach_error(void);

#define TOTAL 100
#define MOVES 10
#define READS 10

int acct_a = TOTAL, acct_b = 0;
pthread_rwlock_t rw;

void *writer(void *arg) {
  for (int i = 0; i < MOVES; i++) {
    pthread_rwlock_wrlock(&rw);
    acct_a = acct_a - 1;
    acct_b = acct_b + 1;
    pthread_rwlock_unlock(&rw);
  }
  return 0;
}

void *reader(void *arg) {
  long seen = 0;
  for (int i = 0; i < READS; i++) {
    pthread_rwlock_rdlock(&rw);
    int x = acct_a;
    int y = acct_b;
    if (x + y != TOTAL)
      reach_error();
    seen += y;
    pthread_rwlock_unlock(&rw);
  }
  return (void *)seen;
}

int main(void) {
  pthread_t w1, w2, r1, r2;
  pthread_rwlock_init(&rw, 0);
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&w1, 0, writer, 0);
  pthread_create(&r2, 0, reader, 0);
  pthread_create(&w2, 0, writer, 0);
  pthread_join(w1, 0);
  pthread_join(w2, 0);
  pthread_join(r1, 0);
  pthread_join(r2, 0);
  pthread_rwlock_wrlock(&rw);
  int b = acct_b;
  if (acct_a + acct_b != TOTAL)
    reach_error();
  pthread_rwlock_unlock(&rw);
  return b;
}
