/* rand/srand/random/srandom (glibc's TYPE_3 generator), time,
   gettimeofday, clock_gettime, clock, perror and the yield points
   sleep/usleep/nanosleep/sched_yield. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/time.h>

int main(void) {
  printf("unseeded:");
  for (int i = 0; i < 5; i++) printf(" %d", rand());
  printf("\n");
  unsigned seeds[] = {0, 1, 2, 42, 12345, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  for (int s = 0; s < 8; s++) {
    srand(seeds[s]);
    printf("srand(%u):", seeds[s]);
    for (int i = 0; i < 6; i++) printf(" %d", rand());
    printf("\n");
  }
  srandom(7);
  long sum = 0;
  for (int i = 0; i < 1000; i++) sum += random() % 1000;
  printf("random sum %ld\n", sum);
  srand(99);
  int hist[6] = {0};
  for (int i = 0; i < 600; i++) hist[rand() % 6]++;
  for (int i = 0; i < 6; i++) printf("die %d: %d\n", i + 1, hist[i]);
  time_t t1;
  time_t t0 = time(&t1);
  printf("time consistent %d positive %d\n", t0 == t1, t0 > 1000000000);
  printf("sleep %u usleep %d yield %d\n", sleep(0), usleep(1), sched_yield());
  struct timespec ts = {0, 1000};
  printf("nanosleep %d\n", nanosleep(&ts, NULL));
  struct timeval tv;
  printf("gettimeofday %d sane %d\n", gettimeofday(&tv, NULL), tv.tv_sec > 1000000000 && tv.tv_usec >= 0 && tv.tv_usec < 1000000);
  struct timespec rt, mono;
  printf("clock_gettime %d %d\n", clock_gettime(CLOCK_REALTIME, &rt), clock_gettime(CLOCK_MONOTONIC, &mono));
  printf("realtime sane %d monotonic sane %d\n", rt.tv_sec >= tv.tv_sec && rt.tv_nsec < 1000000000, mono.tv_sec >= 0 && mono.tv_nsec >= 0);
  clock_t c0 = clock();
  printf("clock nonnegative %d\n", c0 >= 0);
  perror("perror goes to stderr");
  return 0;
}
