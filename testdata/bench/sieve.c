/* Memory-bound: sieve of Eratosthenes over a global array. */
#include <stdio.h>
#define N 4000000
static char composite[N + 1];
int main(void) {
  int count = 0;
  for (int i = 2; i <= N; i++) {
    if (composite[i])
      continue;
    count++;
    for (long j = (long)i * i; j <= N; j += i)
      composite[j] = 1;
  }
  printf("%d\n", count);
  return 0;
}
