/* Globals of several C types changed by one run, for the final state's
 * summary in C terms (srctrace TestCTypes): a member of an element of an
 * array of structs beside the mutex the run used, an element of an array
 * of longs, the fields of a struct, an unsigned, a double, an array of
 * more elements than the summary shows, and a pointer to an element. */
#include <pthread.h>

struct account {
  pthread_mutex_t m;
  long balance;
};
struct account acc[2] = {{PTHREAD_MUTEX_INITIALIZER, 10}, {PTHREAD_MUTEX_INITIALIZER, 20}};
long big[2];
struct point {
  int x, y;
} pt;
unsigned int u;
double d;
int arr[20];
int *ptr;

int main(void) {
  pthread_mutex_lock(&acc[1].m);
  acc[1].balance = 25;
  pthread_mutex_unlock(&acc[1].m);
  big[1] = -3;
  pt.x = 5;
  pt.y = 7;
  u = 4000000000u;
  d = 2.5;
  for (int i = 0; i < 20; i++)
    arr[i] = i + 1;
  ptr = &arr[3];
  return 0;
}
