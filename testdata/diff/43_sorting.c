/* Tests sorting algorithms (quicksort, mergesort, insertion sort, heapsort) on a fixed LCG-generated array. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define N 300

static uint32_t lcg_state = 1;
static int lcg(void) { lcg_state = lcg_state * 1664525u + 1013904223u; return (int)(lcg_state >> 8) % 10000 - 5000; }

static long comparisons;

static void insertion_sort(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && (comparisons++, a[j] > v)) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void quicksort(int *a, int lo, int hi) {
    while (lo < hi) {
        int p = a[lo + (hi - lo) / 2], i = lo, j = hi;
        while (i <= j) {
            while (comparisons++, a[i] < p) i++;
            while (comparisons++, a[j] > p) j--;
            if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        if (j - lo < hi - i) { quicksort(a, lo, j); lo = i; }
        else { quicksort(a, i, hi); hi = j; }
    }
}

static void merge_sort(int *a, int *tmp, int n) {
    if (n < 2) return;
    int m = n / 2;
    merge_sort(a, tmp, m);
    merge_sort(a + m, tmp, n - m);
    int i = 0, j = m, k = 0;
    while (i < m && j < n) tmp[k++] = (comparisons++, a[i] <= a[j]) ? a[i++] : a[j++];
    while (i < m) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, (size_t)n * sizeof(int));
}

static void sift(int *a, int i, int n) {
    for (;;) {
        int l = 2 * i + 1, big = i;
        if (l < n && (comparisons++, a[l] > a[big])) big = l;
        if (l + 1 < n && (comparisons++, a[l + 1] > a[big])) big = l + 1;
        if (big == i) return;
        int t = a[i]; a[i] = a[big]; a[big] = t;
        i = big;
    }
}

static void heap_sort(int *a, int n) {
    for (int i = n / 2 - 1; i >= 0; i--) sift(a, i, n);
    for (int e = n - 1; e > 0; e--) { int t = a[0]; a[0] = a[e]; a[e] = t; sift(a, 0, e); }
}

static int is_sorted(const int *a, int n) {
    for (int i = 1; i < n; i++) if (a[i - 1] > a[i]) return 0;
    return 1;
}

static unsigned checksum(const int *a, int n) {
    unsigned h = 0;
    for (int i = 0; i < n; i++) h = h * 31u + (unsigned)a[i];
    return h;
}

int main(void) {
    int orig[N], a[N], tmp[N];
    for (int i = 0; i < N; i++) orig[i] = lcg();
    printf("first values: %d %d %d %d %d\n", orig[0], orig[1], orig[2], orig[3], orig[4]);
    printf("orig checksum %08x sorted=%d\n", checksum(orig, N), is_sorted(orig, N));
    const char *names[] = {"insertion", "quick", "merge", "heap"};
    unsigned sums[4];
    for (int alg = 0; alg < 4; alg++) {
        memcpy(a, orig, sizeof a);
        comparisons = 0;
        switch (alg) {
        case 0: insertion_sort(a, N); break;
        case 1: quicksort(a, 0, N - 1); break;
        case 2: merge_sort(a, tmp, N); break;
        case 3: heap_sort(a, N); break;
        }
        sums[alg] = checksum(a, N);
        printf("%-9s sorted=%d comparisons=%ld checksum=%08x min=%d max=%d median=%d\n", names[alg], is_sorted(a, N),
               comparisons, sums[alg], a[0], a[N - 1], a[N / 2]);
    }
    printf("all agree=%d\n", sums[0] == sums[1] && sums[1] == sums[2] && sums[2] == sums[3]);
    for (int i = 0; i < N; i += 25) printf("a[%3d]=%d\n", i, a[i]);
    /* sort already-sorted and reversed input */
    for (int i = 0; i < N; i++) a[i] = N - i;
    comparisons = 0;
    quicksort(a, 0, N - 1);
    printf("reversed quick: sorted=%d comparisons=%ld\n", is_sorted(a, N), comparisons);
    comparisons = 0;
    insertion_sort(a, N);
    printf("presorted insertion: comparisons=%ld\n", comparisons);
    /* heap-allocated sort with duplicates */
    int *d = malloc(100 * sizeof(int));
    for (int i = 0; i < 100; i++) d[i] = lcg() % 7;
    merge_sort(d, tmp, 100);
    int runs = 1;
    for (int i = 1; i < 100; i++) runs += d[i] != d[i - 1];
    printf("dups: distinct=%d first=%d last=%d\n", runs, d[0], d[99]);
    free(d);
    return 0;
}
