/* Tests bit-field runs that clang accesses as integers of odd widths (i24, i40, i48, i56): a load
   or store of such a run reads or writes its store size (3, 5, 6, 7 bytes), never the byte after
   it, which may be the next field or, in a packed struct, another object's or nothing. */
#include <stdio.h>

struct run24 { unsigned a : 20; unsigned b : 4; char c; };        /* i24, then c at byte 3 */
struct run40 { unsigned long long a : 33; unsigned long long b : 7; char c; char d; };
struct run48 { unsigned long long a : 40; unsigned long long b : 8; short s; };
struct run56 { unsigned long long a : 50; unsigned long long b : 6; char c; };

#pragma pack(push)
#pragma pack(1)
struct p24 { char c; unsigned a : 24; };                   /* i24 at offset 1 of a 4-byte struct */
struct p48 { unsigned f0 : 18; signed f1 : 24; };          /* i48, the whole 6-byte struct */
struct p40 { char c; unsigned long long a : 39; signed b : 1; char d; };
#pragma pack(pop)

struct run24 r24[3] = {{1, 2, 'x'}, {3, 4, 'y'}, {5, 6, 'z'}};
struct p24 q24[3] = {{'a', 10}, {'b', 20}, {'c', 30}};
struct p48 q48 = {5, -3};

int main(void) {
    for (int i = 0; i < 3; i++) {
        r24[i].a = 0xFFFFFu - (unsigned)i;
        r24[i].b = (unsigned)(i + 9);
    }
    for (int i = 0; i < 3; i++)
        printf("r24[%d] a=%x b=%u c=%c size=%zu\n", i, r24[i].a, r24[i].b, r24[i].c, sizeof(struct run24));

    for (int i = 0; i < 3; i++)
        q24[i].a = 0xABCDE0u + (unsigned)i;
    for (int i = 0; i < 3; i++)
        printf("q24[%d] c=%c a=%x size=%zu\n", i, q24[i].c, q24[i].a, sizeof(struct p24));

    printf("q48 f0=%u f1=%d size=%zu\n", q48.f0, q48.f1, sizeof q48);
    q48.f1 = -8388608;
    q48.f0 = 262143;
    printf("q48 f0=%u f1=%d\n", q48.f0, q48.f1);

    struct run40 r40 = {0x1FFFFFFFFull, 0x55, 'p', 'q'};
    r40.b = 0x2A;
    r40.a -= 1;
    printf("r40 a=%llx b=%llx c=%c d=%c size=%zu\n", (unsigned long long)r40.a, (unsigned long long)r40.b,
           r40.c, r40.d, sizeof r40);

    struct run48 r48 = {0xFFFFFFFFFFull, 0x7F, -2};
    r48.a = 0x123456789Aull;
    r48.b += 1;
    printf("r48 a=%llx b=%llx s=%d size=%zu\n", (unsigned long long)r48.a, (unsigned long long)r48.b, r48.s,
           sizeof r48);

    struct run56 r56 = {0x3FFFFFFFFFFFFull, 0x3F, 'k'};
    r56.a ^= 0x2AAAAAAAAAAAAull;
    r56.b = 0;
    printf("r56 a=%llx b=%llx c=%c size=%zu\n", (unsigned long long)r56.a, (unsigned long long)r56.b, r56.c,
           sizeof r56);

    struct p40 q40 = {'m', 0x7FFFFFFFFFull, -1, 'n'};
    q40.a >>= 3;
    q40.b = 0;
    printf("q40 c=%c a=%llx b=%d d=%c size=%zu\n", q40.c, (unsigned long long)q40.a, q40.b, q40.d, sizeof q40);

    unsigned long long sum = 0;
    for (int i = 0; i < 3; i++)
        sum = sum * 31 + r24[i].a + r24[i].b + (unsigned char)r24[i].c + q24[i].a + (unsigned char)q24[i].c;
    printf("sum=%llu\n", sum);
    return 0;
}
