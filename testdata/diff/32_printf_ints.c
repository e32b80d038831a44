/* Tests printf integer formatting: %d %i %u %x %X %o %c with widths, negatives, INT_MIN, LLONG_MIN, length modifiers. */
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
#include <stddef.h>

int main(void) {
    int iv[] = {0, 1, -1, 42, -42, 255, 65535, 1000000, INT_MAX, INT_MIN};
    for (int i = 0; i < 10; i++)
        printf("d=[%d] i=[%i] u=[%u] x=[%x] X=[%X] o=[%o]\n", iv[i], iv[i], (unsigned)iv[i], (unsigned)iv[i],
               (unsigned)iv[i], (unsigned)iv[i]);
    for (int i = 0; i < 10; i++) printf("[%8d] [%-8d] [%08d] [%3d]\n", iv[i], iv[i], iv[i], iv[i]);
    long long lv[] = {0LL, -1LL, 4294967296LL, -4294967296LL, LLONG_MAX, LLONG_MIN};
    for (int i = 0; i < 6; i++)
        printf("lld=[%lld] llu=[%llu] llx=[%llx] llo=[%llo]\n", lv[i], (unsigned long long)lv[i],
               (unsigned long long)lv[i], (unsigned long long)lv[i]);
    printf("ULLONG_MAX=[%llu] [%llX]\n", ULLONG_MAX, ULLONG_MAX);
    unsigned long ul = ULONG_MAX;
    long sl = LONG_MIN;
    printf("ULONG_MAX=[%lu] LONG_MIN=[%ld] LONG_MAX=[%ld] lx=[%lx]\n", ul, sl, LONG_MAX, ul);
    size_t sz = 123456789;
    printf("zu=[%zu] zx=[%zx] zd=[%zd]\n", sz, sz, (ptrdiff_t)-5);
    short sh = -1234;
    unsigned short ush = 60000;
    printf("hd=[%hd] hu=[%hu] hx=[%hx] ho=[%ho]\n", sh, ush, ush, ush);
    signed char sc = -128;
    unsigned char uc = 200;
    printf("hhd=[%hhd] hhu=[%hhu] hhx=[%hhx]\n", sc, uc, uc);
    const char *letters = "AZaz09 ~";
    for (int i = 0; letters[i]; i++) printf("char [%c] code [%3d] hex [%02x]\n", letters[i], letters[i], letters[i]);
    printf("[%5c][%-5c]\n", 'x', 'y');
    printf("percent: 100%% done, %%d literal\n");
    int8_t a8 = INT8_MIN;
    int16_t a16 = INT16_MIN;
    int32_t a32 = INT32_MIN;
    int64_t a64 = INT64_MIN;
    printf("mins %d %d %d %lld\n", a8, a16, a32, (long long)a64);
    printf("maxes %u %u %u %llu\n", UINT8_MAX, UINT16_MAX, UINT32_MAX, (unsigned long long)UINT64_MAX);
    printf("[%1d][%2d][%6d][%12d][%-12d]\n", 12345, 12345, 12345, 12345, 12345);
    for (int v = -3; v <= 3; v++) printf("%d:%x:%o\n", v * 111, (unsigned)(v * 111), (unsigned)(v * 111));
    return 0;
}
