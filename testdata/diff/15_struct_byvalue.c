/* Tests structs passed and returned by value: tiny, 8/16-byte, mixed, and large (sret/byval) structs. */
#include <stdio.h>
#include <stdint.h>

struct tiny { char c; };
struct pair { int a, b; };
struct mixed { char c; double d; short s; };
struct trio { long long x, y, z; };
struct big { int v[20]; char tag[8]; };
struct fpair { float f; int i; };

static struct tiny tiny_next(struct tiny t) { t.c++; return t; }
static struct pair pair_swap(struct pair p) { struct pair r = {p.b, p.a}; return r; }
static struct pair pair_add(struct pair p, struct pair q) { p.a += q.a; p.b += q.b; return p; }
static struct mixed mixed_scale(struct mixed m, int k) { m.c = (char)(m.c + k); m.d *= k; m.s = (short)(m.s * k); return m; }
static struct trio trio_cross(struct trio a, struct trio b) {
    struct trio r;
    r.x = a.y * b.z - a.z * b.y;
    r.y = a.z * b.x - a.x * b.z;
    r.z = a.x * b.y - a.y * b.x;
    return r;
}
static struct big big_make(int seed) {
    struct big b;
    for (int i = 0; i < 20; i++) b.v[i] = seed * i - i * i;
    for (int i = 0; i < 7; i++) b.tag[i] = (char)('a' + (seed + i) % 26);
    b.tag[7] = 0;
    return b;
}
static int big_sum(struct big b) {
    int s = 0;
    for (int i = 0; i < 20; i++) s += b.v[i];
    b.v[0] = 12345; /* modifies the callee copy only */
    return s;
}
static struct big big_rev(struct big b) {
    for (int i = 0; i < 10; i++) { int t = b.v[i]; b.v[i] = b.v[19 - i]; b.v[19 - i] = t; }
    return b;
}
static struct fpair fpair_mk(int i) { struct fpair f = {(float)i * 0.5f, i * 2}; return f; }

int main(void) {
    struct tiny t = {'a'};
    for (int i = 0; i < 5; i++) { t = tiny_next(t); printf("tiny %c\n", t.c); }
    struct pair p = {3, -4}, q = {10, 20};
    struct pair s = pair_swap(p);
    struct pair a = pair_add(p, q);
    printf("swap (%d,%d) add (%d,%d) orig (%d,%d)\n", s.a, s.b, a.a, a.b, p.a, p.b);
    for (int i = 0; i < 5; i++) { p = pair_add(pair_swap(p), q); printf("iter %d: (%d,%d)\n", i, p.a, p.b); }
    struct mixed m = {'A', 1.5, 300};
    struct mixed m2 = mixed_scale(m, 3);
    printf("mixed %c %d %d -> %c %d %d\n", m.c, (int)(m.d * 10), m.s, m2.c, (int)(m2.d * 10), m2.s);
    struct trio i3 = {1, 0, 0}, j3 = {0, 1, 0};
    struct trio k3 = trio_cross(i3, j3);
    struct trio w = trio_cross((struct trio){2, 3, 4}, (struct trio){5, 6, 7});
    printf("cross i x j = (%lld,%lld,%lld), w=(%lld,%lld,%lld)\n", k3.x, k3.y, k3.z, w.x, w.y, w.z);
    for (int seed = 1; seed <= 4; seed++) {
        struct big b = big_make(seed);
        int sum = big_sum(b);
        struct big r = big_rev(b);
        printf("big seed %d tag=%s sum=%d v0=%d r0=%d r19=%d\n", seed, b.tag, sum, b.v[0], r.v[0], r.v[19]);
    }
    struct big arr[3];
    for (int i = 0; i < 3; i++) arr[i] = big_make(i + 10);
    arr[1] = arr[2];
    printf("arr1 tag %s v5 %d\n", arr[1].tag, arr[1].v[5]);
    for (int i = 0; i < 4; i++) {
        struct fpair f = fpair_mk(i);
        printf("fpair %d: f*10=%d i=%d\n", i, (int)(f.f * 10.0f), f.i);
    }
    return 42;
}
