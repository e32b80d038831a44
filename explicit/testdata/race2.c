/* race2.c -- the uniform scheduler matters: main reads x once after
 * creating a thread that writes it; the reader sees 1 only if the thread's
 * write comes first. */
#include <pthread.h>

int x = 0, seen = -1;

void *writer(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  seen = x;
  pthread_join(t, 0);
  return 0;
}
