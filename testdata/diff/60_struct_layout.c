/* Tests struct layout: padding, alignment, offsetof, packed structs, flexible array members, and arrays inside structs. */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct a { char c; int i; };
struct b { char c; double d; char e; };
struct c { short s; char c; };
struct d { char c1; long long ll; char c2; int i; short s; };
struct __attribute__((packed)) p { char c; int i; short s; };
struct e { int n; struct a inner[3]; char tail; };
struct flex { int len; int data[]; };

static struct flex *flex_new(int n) {
    struct flex *f = malloc(sizeof(struct flex) + (size_t)n * sizeof(int));
    f->len = n;
    for (int i = 0; i < n; i++) f->data[i] = i * 11;
    return f;
}

int main(void) {
    printf("a: size %zu align %zu off(i)=%zu\n", sizeof(struct a), _Alignof(struct a), offsetof(struct a, i));
    printf("b: size %zu align %zu off(d)=%zu off(e)=%zu\n", sizeof(struct b), _Alignof(struct b), offsetof(struct b, d),
           offsetof(struct b, e));
    printf("c: size %zu align %zu\n", sizeof(struct c), _Alignof(struct c));
    printf("d: size %zu off ll=%zu c2=%zu i=%zu s=%zu\n", sizeof(struct d), offsetof(struct d, ll), offsetof(struct d, c2),
           offsetof(struct d, i), offsetof(struct d, s));
    printf("packed: size %zu off i=%zu s=%zu\n", sizeof(struct p), offsetof(struct p, i), offsetof(struct p, s));
    printf("e: size %zu off inner=%zu tail=%zu\n", sizeof(struct e), offsetof(struct e, inner), offsetof(struct e, tail));
    printf("flex: size %zu off data=%zu\n", sizeof(struct flex), offsetof(struct flex, data));
    struct p pk[4];
    for (int i = 0; i < 4; i++) { pk[i].c = (char)('a' + i); pk[i].i = 1000000 * (i + 1) + i; pk[i].s = (short)(-i * 300); }
    long long tot = 0;
    for (int i = 0; i < 4; i++) { tot += pk[i].i + pk[i].s; printf("packed[%d] %c %d %d\n", i, pk[i].c, pk[i].i, pk[i].s); }
    printf("packed total=%lld\n", tot);
    unsigned char raw[sizeof(struct p)];
    memcpy(raw, &pk[1], sizeof raw);
    printf("packed bytes:");
    for (size_t i = 0; i < sizeof raw; i++) printf(" %02x", raw[i]);
    printf("\n");
    struct e ev;
    memset(&ev, 0, sizeof ev);
    ev.n = 3;
    for (int i = 0; i < 3; i++) { ev.inner[i].c = (char)('x' + i); ev.inner[i].i = i * i * 7; }
    ev.tail = '!';
    struct e copy = ev;
    copy.inner[1].i = -1;
    for (int i = 0; i < 3; i++) printf("inner[%d] %c %d / copy %d\n", i, ev.inner[i].c, ev.inner[i].i, copy.inner[i].i);
    printf("tail %c\n", copy.tail);
    /* access a member through a char* + offsetof */
    char *base = (char *)&ev;
    int *pi = (int *)(base + offsetof(struct e, inner) + 2 * sizeof(struct a) + offsetof(struct a, i));
    printf("via offsetof: %d\n", *pi);
    struct flex *f = flex_new(9);
    int fs = 0;
    for (int i = 0; i < f->len; i++) fs += f->data[i];
    printf("flex len %d sum %d last %d\n", f->len, fs, f->data[f->len - 1]);
    free(f);
    struct d arr[3];
    printf("array of d: total %zu, stride %td\n", sizeof arr, (char *)&arr[1] - (char *)&arr[0]);
    return 0;
}
