/* Tests recursion: fib, small ackermann, mutual recursion (even/odd), gcd, fast power, permutations, binary search. */
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
static long long gcd(long long a, long long b) { return b == 0 ? a : gcd(b, a % b); }
static long long power(long long b, int e) {
    if (e == 0) return 1;
    long long h = power(b, e / 2);
    return e % 2 ? h * h * b : h * h;
}
static int perm_count;
static void permute(char *s, int k, int n) {
    if (k == n) {
        perm_count++;
        if (perm_count <= 10 || perm_count % 6 == 0) printf("perm %2d: %s\n", perm_count, s);
        return;
    }
    for (int i = k; i < n; i++) {
        char t = s[k]; s[k] = s[i]; s[i] = t;
        permute(s, k + 1, n);
        t = s[k]; s[k] = s[i]; s[i] = t;
    }
}
static int sum_digits(int n) { return n < 10 ? n : n % 10 + sum_digits(n / 10); }
static int binsearch(const int *a, int lo, int hi, int key) {
    if (lo > hi) return -1;
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) return mid;
    return a[mid] < key ? binsearch(a, mid + 1, hi, key) : binsearch(a, lo, mid - 1, key);
}

int main(void) {
    for (int i = 0; i <= 20; i += 2) printf("fib(%d) = %d\n", i, fib(i));
    for (int m = 0; m <= 2; m++)
        for (int n = 0; n <= 3; n++) printf("ack(%d,%d) = %d\n", m, n, ack(m, n));
    printf("ack(3,3) = %d\n", ack(3, 3));
    for (unsigned n = 0; n < 8; n++) printf("%u even=%d odd=%d\n", n, is_even(n), is_odd(n));
    printf("is_even(1001)=%d\n", is_even(1001));
    printf("gcd(1071,462)=%lld gcd(2^40,6^15)=%lld\n", gcd(1071, 462), gcd(power(2, 40), power(6, 15)));
    printf("3^39=%lld\n", power(3, 39));
    char s[] = "abcd";
    permute(s, 0, 4);
    printf("total perms %d\n", perm_count);
    printf("sum_digits(987654321)=%d\n", sum_digits(987654321));
    int sorted[20];
    for (int i = 0; i < 20; i++) sorted[i] = i * 7 - 30;
    for (int k = -30; k < 110; k += 17) printf("binsearch %d -> %d\n", k, binsearch(sorted, 0, 19, k));
    return 0;
}
