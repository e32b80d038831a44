/* race_strcmp_ok.c -- strcmp of "ab" and "ax" reads up to the first difference (byte 1) while another thread writes a[3]: no race; strncpy writes only its n bytes.
 * DataRace sees the accesses of platform functions (vm/race.go). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

char a[8] = "ab", b[8] = "ax";

void *ta(void *x) {
  return (void *)(long)strcmp(a, b);
  return 0;
}

void *tb(void *x) {
  strncpy(a + 3, "q", 2);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, ta, 0);
  pthread_create(&b, 0, tb, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
