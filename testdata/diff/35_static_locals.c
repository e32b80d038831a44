/* Tests static local variables: counters, memoisation tables, static arrays, and state across calls. */
#include <stdio.h>

static int counter(void) {
    static int n = 0;
    return ++n;
}

static int counter2(int reset) {
    static int n = 100;
    if (reset) n = 100;
    return n--;
}

static long long memo_fib(int n) {
    static long long memo[91];
    static int init;
    if (!init) { memo[0] = 0; memo[1] = 1; init = 1; }
    if (n < 2) return memo[n];
    if (memo[n]) return memo[n];
    return memo[n] = memo_fib(n - 1) + memo_fib(n - 2);
}

static const char *next_word(void) {
    static const char *words[] = {"one", "two", "three"};
    static unsigned idx;
    return words[idx++ % 3];
}

static unsigned rng(void) {
    static unsigned state = 12345u;
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
}

static int *history(int v) {
    static int buf[8];
    static int pos;
    buf[pos++ & 7] = v;
    return buf;
}

int main(void) {
    for (int i = 0; i < 5; i++) printf("counter=%d\n", counter());
    for (int i = 0; i < 4; i++) printf("counter2=%d\n", counter2(0));
    printf("counter2 after reset=%d\n", counter2(1));
    printf("counter2 then=%d\n", counter2(0));
    for (int n = 10; n <= 90; n += 10) printf("fib(%d)=%lld\n", n, memo_fib(n));
    for (int i = 0; i < 7; i++) printf("word %s\n", next_word());
    for (int i = 0; i < 8; i++) printf("rng %u\n", rng() % 1000);
    int *h = 0;
    for (int i = 1; i <= 11; i++) h = history(i * i);
    for (int i = 0; i < 8; i++) printf("hist[%d]=%d\n", i, h[i]);
    printf("final counter=%d\n", counter());
    return 0;
}
