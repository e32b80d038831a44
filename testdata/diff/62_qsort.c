/* qsort with comparators through function pointers: ints, strings,
   structs with equal keys (glibc's merge sort is stable), and the number of
   comparator calls (the same comparisons as glibc's algorithm). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls;

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  calls++;
  return (x > y) - (x < y);
}

static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }

static int cmp_str(const void *a, const void *b) {
  calls++;
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct rec { int key; char name[12]; double w; };

static int cmp_rec(const void *a, const void *b) {
  const struct rec *x = a, *y = b;
  calls++;
  return x->key - y->key;
}

static int cmp_char(const void *a, const void *b) { return *(const char *)a - *(const char *)b; }

int main(void) {
  int a[37];
  unsigned s = 12345;
  for (int i = 0; i < 37; i++) { s = s * 1103515245u + 12345u; a[i] = (int)(s >> 16) % 100 - 50; }
  calls = 0;
  qsort(a, 37, sizeof a[0], cmp_int);
  for (int i = 0; i < 37; i++) printf("%d ", a[i]);
  printf("\ncalls %d\n", calls);
  calls = 0;
  qsort(a, 37, sizeof a[0], cmp_int_desc);
  for (int i = 0; i < 37; i++) printf("%d ", a[i]);
  printf("\ncalls %d\n", calls);
  calls = 0;
  qsort(a, 37, sizeof a[0], cmp_int_desc); /* already sorted */
  printf("sorted again: calls %d\n", calls);
  const char *words[] = {"pear", "apple", "fig", "banana", "kiwi", "apple", "cherry", "date", "elderberry", "grape"};
  calls = 0;
  qsort(words, 10, sizeof words[0], cmp_str);
  for (int i = 0; i < 10; i++) printf("%s ", words[i]);
  printf("\ncalls %d\n", calls);
  struct rec r[9];
  for (int i = 0; i < 9; i++) {
    r[i].key = (i * 7) % 4;
    snprintf(r[i].name, sizeof r[i].name, "rec%d", i);
    r[i].w = i * 0.5;
  }
  calls = 0;
  qsort(r, 9, sizeof r[0], cmp_rec);
  for (int i = 0; i < 9; i++) printf("%d:%s:%.1f ", r[i].key, r[i].name, r[i].w);
  printf("\ncalls %d\n", calls);
  char str[] = "the quick brown fox";
  qsort(str, strlen(str), 1, cmp_char);
  printf("[%s]\n", str);
  qsort(a, 0, sizeof a[0], cmp_int);
  qsort(a, 1, sizeof a[0], cmp_int);
  printf("done %d\n", a[0]);
  return 0;
}
