/* Tests wrap-around arithmetic on uint64_t: FNV-1a, xorshift, mul/div/mod at 64 bits. */
#include <stdio.h>
#include <stdint.h>

static uint64_t fnv1a(const char *s) {
    uint64_t h = 14695981039346656037ULL;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 1099511628211ULL;
    }
    return h;
}

int main(void) {
    const char *words[] = {"", "a", "hello", "wyvern", "LLVM interpreter", "The quick brown fox"};
    for (int i = 0; i < 6; i++)
        printf("fnv1a(\"%s\") = %016llx\n", words[i], (unsigned long long)fnv1a(words[i]));

    uint64_t s = 88172645463325252ULL;
    for (int i = 0; i < 12; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        printf("xorshift[%2d] = %20llu\n", i, (unsigned long long)s);
    }
    uint64_t vals[] = {0, 1, 0xffffffffULL, 0x100000000ULL, 0x7fffffffffffffffULL,
                       0x8000000000000000ULL, 0xffffffffffffffffULL, 1234567890123456789ULL};
    for (int i = 0; i < 8; i++) {
        uint64_t a = vals[i], b = vals[7 - i];
        printf("%016llx + %016llx = %016llx\n", (unsigned long long)a, (unsigned long long)b,
               (unsigned long long)(a + b));
        printf("%016llx * %016llx = %016llx\n", (unsigned long long)a, (unsigned long long)b,
               (unsigned long long)(a * b));
        if (b)
            printf("   div=%llu mod=%llu\n", (unsigned long long)(a / b), (unsigned long long)(a % b));
    }
    uint64_t z = 0;
    z -= 1;
    printf("0-1 = %llu\n", (unsigned long long)z);
    printf("neg 5 = %llu\n", (unsigned long long)(-(uint64_t)5));
    unsigned long ul = 0UL - 7UL;
    printf("ul = %lu, lx = %lx\n", ul, ul);
    return 0;
}
