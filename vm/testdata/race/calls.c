/* calls.c -- calls of the platform functions whose memory footprints
 * DataRace sees (vm/race.go), on small buffers: TestCallFootprints checks
 * each call's footprint against what the call reads and writes. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>

char a[16] = "hello", b[16] = "help", c[16], d[16] = "ab";
char big[24] = "HeLLo world";
long t;
char num[16] = " -42xyz", fnum[16] = "2.5e1q", *endp;
struct timeval tv;
struct timespec ts;
void *res;

void *worker(void *x) { return (void *)7; }

int main(void) {
  int r = 0;
  memset(c, 'x', 5);
  memcpy(c + 1, a, 3);
  memmove(c + 2, c, 6);
  r += memcmp(a, b, 6);
  r += memcmp(a, b, 2);
  r += strlen(a);
  r += strnlen(a, 3);
  r += strnlen(d, 9);
  r += strcmp(a, b);
  r += strncmp(a, b, 3);
  r += strcasecmp(big, a);
  r += strncasecmp(big, a, 4);
  strcpy(c, d);
  stpcpy(c + 4, "xyz");
  strncpy(c + 8, a, 7);
  strncpy(c + 8, d, 2);
  strcat(d, "cd");
  strncat(d, a, 2);
  strncat(d, "q", 5);
  r += strchr(a, 'l') != 0;
  r += strchr(a, 'z') != 0;
  r += strrchr(a, 'l') != 0;
  r += memchr(big, 'o', 20) != 0;
  r += memchr(big, '!', 20) != 0;
  char *p = strdup(a);
  char *q = strndup(big, 4);
  r += strstr(big, "wor") != 0;
  r += strspn(a, "leh");
  r += strcspn(a, "o");
  r += strpbrk(big, "w") != 0;
  puts(d);
  printf("%s|%.2s|%d|%*s|%.*s|%c%%\n", a, big, r, 4, d, 3, b, 'z');
  sprintf(c, "%s-%d", d, 42);
  snprintf(big + 12, 6, "%s%s", a, b);
  snprintf(c, 0, "%s", a);
  fputs(b, stdout);
  fprintf(stdout, "%s %d\n", c, r);
  fwrite(a, 1, 4, stdout);
  perror(d);
  r += strtol(num, &endp, 10);
  r += strtoul(num + 2, &endp, 16);
  r += atoi(num);
  r += (int)strtod(fnum, &endp);
  r += (int)atof(fnum);
  time(&t);
  gettimeofday(&tv, 0);
  clock_gettime(CLOCK_REALTIME, &ts);
  pthread_t th;
  pthread_create(&th, 0, worker, 0);
  pthread_join(th, &res);
  p = realloc(p, 3);
  p = realloc(p, 9);
  free(p);
  free(q);
  return r & 1;
}
