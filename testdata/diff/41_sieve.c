/* Tests a sieve of Eratosthenes (byte array and bit array versions), prime counting, twin primes, and prime gaps. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#define N 10000

static unsigned char composite[N + 1];
static uint32_t bits[(N + 32) / 32];

static void sieve_bytes(void) {
    memset(composite, 0, sizeof composite);
    composite[0] = composite[1] = 1;
    for (int i = 2; i * i <= N; i++)
        if (!composite[i])
            for (int j = i * i; j <= N; j += i) composite[j] = 1;
}

static int bit_get(int i) { return (int)((bits[i >> 5] >> (i & 31)) & 1u); }
static void bit_set(int i) { bits[i >> 5] |= 1u << (i & 31); }

static void sieve_bits(void) {
    memset(bits, 0, sizeof bits);
    bit_set(0);
    bit_set(1);
    for (int i = 2; i * i <= N; i++)
        if (!bit_get(i))
            for (int j = i * i; j <= N; j += i) bit_set(j);
}

int main(void) {
    sieve_bytes();
    sieve_bits();
    int mismatches = 0;
    for (int i = 0; i <= N; i++) mismatches += composite[i] != bit_get(i);
    printf("mismatches=%d\n", mismatches);
    printf("first primes:");
    int shown = 0;
    for (int i = 2; shown < 30; i++) if (!composite[i]) { printf(" %d", i); shown++; }
    printf("\n");
    int count = 0, limit = 10;
    for (int i = 2; i <= N; i++) {
        if (!composite[i]) count++;
        if (i == limit) { printf("pi(%d) = %d\n", limit, count); limit *= 10; }
    }
    printf("pi(%d) = %d\n", N, count);
    int twins = 0, last_twin = 0;
    for (int i = 3; i + 2 <= N; i += 2)
        if (!composite[i] && !composite[i + 2]) { twins++; last_twin = i; }
    printf("twin pairs=%d last=(%d,%d)\n", twins, last_twin, last_twin + 2);
    int prev = 2, maxgap = 0, gapat = 0;
    for (int i = 3; i <= N; i++)
        if (!composite[i]) {
            if (i - prev > maxgap) { maxgap = i - prev; gapat = prev; printf("new max gap %d after %d\n", maxgap, gapat); }
            prev = i;
        }
    printf("largest prime <= %d is %d\n", N, prev);
    /* Goldbach check for small evens */
    for (int e = 4; e <= 60; e += 8) {
        for (int p = 2; p <= e / 2; p++)
            if (!composite[p] && !composite[e - p]) { printf("%d = %d + %d\n", e, p, e - p); break; }
    }
    unsigned long long psum = 0;
    for (int i = 0; i <= N; i++) if (!composite[i]) psum += (unsigned)i;
    printf("sum of primes = %llu\n", psum);
    return 0;
}
