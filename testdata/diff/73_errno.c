// wyvern-diff: seeds=1,2,3,4,5
/* errno: ERANGE from the strto* functions on overflow and underflow (and
   not otherwise), EAGAIN from sem_trywait, and one errno per thread. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <semaphore.h>
#include <pthread.h>

static int thread_errno[3];

static void *worker(void *arg) {
  long id = (long)arg;
  errno = (int)(100 + id);
  sched_yield();
  thread_errno[id] = errno;
  return 0;
}

int main(void) {
  const char *ints[] = {"123", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "-1", "zzz"};
  for (int i = 0; i < 9; i++) {
    errno = 0;
    long v = strtol(ints[i], NULL, 10);
    int e1 = errno;
    errno = 0;
    unsigned long u = strtoul(ints[i], NULL, 10);
    int e2 = errno;
    errno = 0;
    long long ll = strtoll(ints[i], NULL, 10);
    int e3 = errno;
    printf("%s: %ld %s | %lu %s | %lld %s\n", ints[i], v, e1 == ERANGE ? "ERANGE" : "ok", u, e2 == ERANGE ? "ERANGE" : "ok",
           ll, e3 == ERANGE ? "ERANGE" : "ok");
  }
  const char *fls[] = {"1.5", "1e400", "-1e400", "1e-400", "0.0", "2e-310", "3e38", "4e38", "1e-40", "inf"};
  for (int i = 0; i < 10; i++) {
    errno = 0;
    double d = strtod(fls[i], NULL);
    int e1 = errno;
    errno = 0;
    float f = strtof(fls[i], NULL);
    int e2 = errno;
    printf("%s: %g %s | %g %s\n", fls[i], d, e1 == ERANGE ? "ERANGE" : "ok", f, e2 == ERANGE ? "ERANGE" : "ok");
  }
  sem_t s;
  sem_init(&s, 0, 0);
  errno = 0;
  int r = sem_trywait(&s);
  printf("trywait %d %s\n", r, errno == EAGAIN ? "EAGAIN" : "other");
  errno = 7;
  pthread_t t[3];
  for (long i = 0; i < 3; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
  printf("threads %d %d %d main %d\n", thread_errno[0], thread_errno[1], thread_errno[2], errno);
  return 0;
}
