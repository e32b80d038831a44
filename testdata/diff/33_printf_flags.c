/* Tests printf flags and precision: - 0 + space #, precision on integers and strings, combined with l/ll/h modifiers. */
#include <stdio.h>
#include <limits.h>

int main(void) {
    int vals[] = {0, 7, -7, 1234, -98765, INT_MAX, INT_MIN};
    for (int i = 0; i < 7; i++) {
        int v = vals[i];
        printf("[%+d] [% d] [%+6d] [% 6d] [%-+6d] [%06d] [%+06d] [%.4d] [%8.4d] [%-8.4d]\n", v, v, v, v, v, v, v, v, v, v);
    }
    unsigned uv[] = {0u, 8u, 255u, 4096u, 0xdeadbeefu};
    for (int i = 0; i < 5; i++) {
        unsigned u = uv[i];
        printf("[%#x] [%#X] [%#o] [%#10x] [%#-10x] [%#010x] [%.6x] [%08o] [%.0u]\n", u, u, u, u, u, u, u, u, u);
    }
    printf("[%.0d] [%5.0d] [%.0x] (zero with precision 0)\n", 0, 0, 0u);
    printf("[%#.3o] [%#o]\n", 8u, 0u);
    const char *strs[] = {"", "a", "hello", "wyvern interpreter"};
    for (int i = 0; i < 4; i++)
        printf("[%s] [%10s] [%-10s] [%.3s] [%10.2s] [%-6.4s]\n", strs[i], strs[i], strs[i], strs[i], strs[i], strs[i]);
    long long big = -1234567890123LL;
    printf("[%+lld] [%20lld] [%-20lld] [%020lld] [%.15lld]\n", big, big, big, big, big);
    printf("[%+lld] [% lld]\n", LLONG_MAX, LLONG_MAX);
    printf("[%#llx] [%#llo] [%25llu]\n", 0xfedcba9876543210ULL, 0777ULL, 18446744073709551615ULL);
    printf("[%+ld] [%-12ld] [%012lx]\n", 99L, -99L, 0xabcL);
    printf("[%+hd] [%05hu] [%#hx]\n", (short)-5, (unsigned short)42, (unsigned short)0xbeef);
    printf("[%-5c] [%5c] [%c%c%c]\n", 'L', 'R', 'a', 'b', 'c');
    for (int w = 0; w < 6; w++) {
        int v = 1;
        for (int k = 0; k < w; k++) v *= -10;
        printf("row %d: |%+8d|%-8d|%08x|%#8o|\n", w, v, v, (unsigned)v, (unsigned)(v < 0 ? -v : v));
    }
    /* deliberately conflicting flags (defined: 0 ignored with -, space ignored with +); -Wformat warns */
    printf("[%-+08d] [%0-8d] [%+ d]\n", 42, 42, 42);
    return 0;
}
