// wyvern-diff: seeds=1,2,3,4,5,6,7
/* Threads synchronised by a barrier and POSIX semaphores, with output that
   does not depend on the schedule: phases separated by a barrier (one
   thread per round gets PTHREAD_BARRIER_SERIAL_THREAD), a bounded buffer
   with semaphores, a detached thread that signals through a semaphore, and
   sem_trywait/sem_getvalue. */
#include <stdio.h>
#include <pthread.h>
#include <semaphore.h>

#define N 4
#define ROUNDS 3

static pthread_barrier_t bar;
static int slot[N], total[ROUNDS], serial[ROUNDS];

static void *phase_worker(void *arg) {
  int id = (int)(long)arg;
  for (int r = 0; r < ROUNDS; r++) {
    slot[id] = (id + 1) * (r + 2);
    int rc = pthread_barrier_wait(&bar);
    if (rc == PTHREAD_BARRIER_SERIAL_THREAD) {
      int s = 0;
      for (int i = 0; i < N; i++) s += slot[i];
      total[r] = s;
      serial[r]++;
    } else if (rc != 0) {
      serial[r] += 100;
    }
    pthread_barrier_wait(&bar);
  }
  return 0;
}

#define CAP 3
#define ITEMS 12
static int buf[CAP], in, out;
static sem_t empty, full;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long consumed;

static void *producer(void *arg) {
  int base = (int)(long)arg;
  for (int i = 0; i < ITEMS; i++) {
    sem_wait(&empty);
    pthread_mutex_lock(&mu);
    buf[in] = base + i;
    in = (in + 1) % CAP;
    pthread_mutex_unlock(&mu);
    sem_post(&full);
  }
  return 0;
}

static void *consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < 2 * ITEMS; i++) {
    sem_wait(&full);
    pthread_mutex_lock(&mu);
    consumed += buf[out];
    out = (out + 1) % CAP;
    pthread_mutex_unlock(&mu);
    sem_post(&empty);
  }
  return 0;
}

static sem_t done;
static int detached_ran;

static void *detached(void *arg) {
  detached_ran = (int)(long)arg;
  sem_post(&done);
  return 0;
}

int main(void) {
  pthread_t t[N];
  printf("barrier init %d\n", pthread_barrier_init(&bar, NULL, N));
  for (long i = 0; i < N; i++) pthread_create(&t[i], NULL, phase_worker, (void *)i);
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  for (int r = 0; r < ROUNDS; r++) printf("round %d: total %d serial %d\n", r, total[r], serial[r]);
  printf("barrier destroy %d\n", pthread_barrier_destroy(&bar));

  sem_init(&empty, 0, CAP);
  sem_init(&full, 0, 0);
  pthread_t p1, p2, c;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p1, NULL, producer, (void *)100L);
  pthread_create(&p2, NULL, producer, (void *)1000L);
  pthread_join(p1, NULL);
  pthread_join(p2, NULL);
  pthread_join(c, NULL);
  int v;
  sem_getvalue(&empty, &v);
  printf("consumed %ld, empty %d\n", consumed, v);
  printf("trywait full %d\n", sem_trywait(&full));
  printf("trywait empty %d\n", sem_trywait(&empty));
  sem_getvalue(&empty, &v);
  printf("empty now %d\n", v);

  pthread_attr_t attr;
  int ds = -1;
  pthread_attr_init(&attr);
  pthread_attr_getdetachstate(&attr, &ds);
  printf("default detach state joinable %d\n", ds == PTHREAD_CREATE_JOINABLE);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_getdetachstate(&attr, &ds);
  printf("detached %d\n", ds == PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, 1 << 20);
  sem_init(&done, 0, 0);
  pthread_t d;
  pthread_create(&d, &attr, detached, (void *)7L);
  pthread_attr_destroy(&attr);
  sem_wait(&done);
  printf("detached thread ran %d\n", detached_ran);
  pthread_t d2;
  pthread_create(&d2, NULL, detached, (void *)9L);
  printf("pthread_detach %d\n", pthread_detach(d2));
  sem_wait(&done);
  printf("second ran %d\n", detached_ran);
  sem_destroy(&empty);
  sem_destroy(&full);
  sem_destroy(&done);
  return 0;
}
