/* Tests memcpy, memmove (overlapping both directions), memset, memcmp ordering, and puts output. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

static int sgn(int x) { return (x > 0) - (x < 0); }

static void show(const char *label, const unsigned char *b, int n) {
    printf("%-10s", label);
    for (int i = 0; i < n; i++) printf(" %02x", b[i]);
    printf("\n");
}

int main(void) {
    unsigned char buf[24];
    for (int i = 0; i < 24; i++) buf[i] = (unsigned char)(i + 1);
    show("init", buf, 24);
    memmove(buf + 4, buf, 10);
    show("mv fwd", buf, 24);
    for (int i = 0; i < 24; i++) buf[i] = (unsigned char)(i + 1);
    memmove(buf, buf + 6, 12);
    show("mv back", buf, 24);
    memmove(buf + 3, buf + 3, 5);
    show("mv self", buf, 24);
    memset(buf, 0xAB, 8);
    memset(buf + 8, 0, 4);
    memset(buf + 20, 300, 4); /* value converted to unsigned char: 0x2c */
    show("memset", buf, 24);
    unsigned char dst[24];
    memcpy(dst, buf, sizeof dst);
    show("memcpy", dst, 24);
    printf("memcmp equal sign=%d\n", sgn(memcmp(dst, buf, 24)));
    dst[10] = 0xFF;
    printf("memcmp dst>buf sign=%d, buf<dst sign=%d\n", sgn(memcmp(dst, buf, 24)), sgn(memcmp(buf, dst, 24)));
    printf("memcmp prefix 10 sign=%d, n=0 sign=%d\n", sgn(memcmp(dst, buf, 10)), sgn(memcmp(dst, buf, 0)));
    unsigned char hi[2] = {0x80, 0}, lo[2] = {0x7F, 0};
    printf("memcmp unsigned bytes 0x80 vs 0x7f sign=%d\n", sgn(memcmp(hi, lo, 2)));
    /* copying structs and arrays of ints with memcpy */
    struct rec { int a; short b; char c[6]; } r1 = {123456, -5, "hello"}, r2;
    memcpy(&r2, &r1, sizeof r1);
    printf("r2: %d %d %s\n", r2.a, r2.b, r2.c);
    int nums[10];
    for (int i = 0; i < 10; i++) nums[i] = i * i;
    memmove(nums + 1, nums, 9 * sizeof(int));
    for (int i = 0; i < 10; i++) printf("%d ", nums[i]);
    printf("\n");
    uint32_t w = 0;
    unsigned char bytes[4] = {0x78, 0x56, 0x34, 0x12};
    memcpy(&w, bytes, 4);
    printf("bytes as u32 (little endian) = %08x\n", w);
    uint64_t q = 0x1122334455667788ULL;
    unsigned char qb[8];
    memcpy(qb, &q, 8);
    show("u64 bytes", qb, 8);
    double d = 1.0;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    printf("1.0 bits = %016llx\n", (unsigned long long)bits);
    /* rotate an array left by k using memmove */
    char rot[] = "ABCDEFGHIJ";
    for (int k = 0; k < 4; k++) {
        char first = rot[0];
        memmove(rot, rot + 1, 9);
        rot[9] = first;
        puts(rot);
    }
    puts("puts adds a newline");
    puts("");
    puts("end of memory tests");
    return 0;
}
