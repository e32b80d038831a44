/* Tests a hand-written generic qsort-like sort taking a comparator, used on ints, strings, and structs. */
#include <stdio.h>
#include <string.h>

typedef int (*cmp_fn)(const void *, const void *);

static void swap_bytes(unsigned char *a, unsigned char *b, size_t n) {
    while (n--) { unsigned char t = *a; *a++ = *b; *b++ = t; }
}

static void gsort(void *base, size_t n, size_t sz, cmp_fn cmp) {
    unsigned char *b = base;
    if (n < 2) return;
    /* median element as pivot moved to end */
    swap_bytes(b + (n / 2) * sz, b + (n - 1) * sz, sz);
    unsigned char *pivot = b + (n - 1) * sz;
    size_t store = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (cmp(b + i * sz, pivot) < 0) { swap_bytes(b + i * sz, b + store * sz, sz); store++; }
    swap_bytes(b + store * sz, pivot, sz);
    gsort(b, store, sz, cmp);
    gsort(b + (store + 1) * sz, n - store - 1, sz, cmp);
}

static int cmp_int_asc(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int_asc(b, a); }
static int cmp_abs(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    int ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
    if (ax != ay) return ax < ay ? -1 : 1;
    return (x > y) - (x < y);
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }
static int cmp_len(const void *a, const void *b) {
    size_t la = strlen(*(const char *const *)a), lb = strlen(*(const char *const *)b);
    if (la != lb) return la < lb ? -1 : 1;
    return cmp_str(a, b);
}

struct person { char name[10]; int age; };
static int cmp_person(const void *a, const void *b) {
    const struct person *p = a, *q = b;
    if (p->age != q->age) return p->age - q->age;
    return strcmp(p->name, q->name);
}

static int calls;
static int counting_cmp(const void *a, const void *b) { calls++; return cmp_int_asc(a, b); }

static void print_ints(const char *label, const int *a, int n) {
    printf("%s:", label);
    for (int i = 0; i < n; i++) printf(" %d", a[i]);
    printf("\n");
}

int main(void) {
    int a[] = {5, -3, 9, 0, -12, 7, 7, 2, -3, 100, -100, 1};
    int n = (int)(sizeof a / sizeof a[0]);
    gsort(a, n, sizeof(int), cmp_int_asc);
    print_ints("asc", a, n);
    gsort(a, n, sizeof(int), cmp_int_desc);
    print_ints("desc", a, n);
    gsort(a, n, sizeof(int), cmp_abs);
    print_ints("abs", a, n);
    const char *words[] = {"pear", "apple", "fig", "banana", "kiwi", "cherry", "date", "apricot", "plum"};
    int nw = 9;
    gsort(words, nw, sizeof(char *), cmp_str);
    for (int i = 0; i < nw; i++) printf("alpha %d: %s\n", i, words[i]);
    gsort(words, nw, sizeof(char *), cmp_len);
    for (int i = 0; i < nw; i++) printf("bylen %d: %s\n", i, words[i]);
    struct person people[] = {{"dora", 31}, {"al", 25}, {"cy", 31}, {"bo", 19}, {"eve", 25}, {"fay", 40}};
    gsort(people, 6, sizeof(struct person), cmp_person);
    for (int i = 0; i < 6; i++) printf("person %s %d\n", people[i].name, people[i].age);
    int big[64];
    unsigned s = 7;
    for (int i = 0; i < 64; i++) { s = s * 1664525u + 1013904223u; big[i] = (int)(s >> 20) - 2048; }
    gsort(big, 64, sizeof(int), counting_cmp);
    int ok = 1;
    for (int i = 1; i < 64; i++) if (big[i - 1] > big[i]) ok = 0;
    printf("big sorted ok=%d calls=%d first=%d last=%d\n", ok, calls, big[0], big[63]);
    return 0;
}
