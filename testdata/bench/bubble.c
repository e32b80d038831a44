/* Array-bound: bubble sort of a pseudo-random local array. */
#include <stdio.h>
#define N 4000
int main(void) {
  int a[N];
  unsigned x = 12345;
  for (int i = 0; i < N; i++) {
    x = x * 1103515245u + 12345u;
    a[i] = (int)(x >> 8) % 100000;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j + 1 < N - i; j++)
      if (a[j] > a[j + 1]) {
        int t = a[j];
        a[j] = a[j + 1];
        a[j + 1] = t;
      }
  printf("%d %d %d\n", a[0], a[N / 2], a[N - 1]);
  return 0;
}
