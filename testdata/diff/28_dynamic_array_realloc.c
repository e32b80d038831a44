/* Tests realloc-grown dynamic arrays, calloc zero-fill, a growing string buffer, and shrinking realloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec { int *data; size_t len, cap; };

static void vec_push(struct vec *v, int x) {
    if (v->len == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 2;
        int *nd = realloc(v->data, nc * sizeof(int));
        if (!nd) { printf("oom\n"); exit(1); }
        v->data = nd;
        v->cap = nc;
        printf("grow to cap %zu at len %zu\n", nc, v->len);
    }
    v->data[v->len++] = x;
}

struct sbuf { char *s; size_t len, cap; };

static void sb_append(struct sbuf *b, const char *t) {
    size_t tl = strlen(t);
    if (b->len + tl + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 8;
        while (nc < b->len + tl + 1) nc *= 2;
        b->s = realloc(b->s, nc);
        b->cap = nc;
    }
    memcpy(b->s + b->len, t, tl + 1);
    b->len += tl;
}

int main(void) {
    struct vec v = {NULL, 0, 0};
    for (int i = 0; i < 100; i++) vec_push(&v, i * i % 97);
    long sum = 0;
    for (size_t i = 0; i < v.len; i++) sum += v.data[i];
    printf("len=%zu cap=%zu sum=%ld last=%d\n", v.len, v.cap, sum, v.data[v.len - 1]);
    v.data = realloc(v.data, 10 * sizeof(int));
    v.cap = v.len = 10;
    for (size_t i = 0; i < v.len; i++) printf("kept[%zu]=%d\n", i, v.data[i]);
    free(v.data);

    int *z = calloc(50, sizeof(int));
    int nz = 0;
    for (int i = 0; i < 50; i++) nz += z[i] != 0;
    printf("calloc nonzero count=%d\n", nz);
    for (int i = 0; i < 50; i++) z[i] = i;
    z = realloc(z, 200 * sizeof(int));
    int prefix_ok = 1;
    for (int i = 0; i < 50; i++) if (z[i] != i) prefix_ok = 0;
    printf("realloc preserved prefix=%d\n", prefix_ok);
    free(z);

    struct sbuf b = {NULL, 0, 0};
    const char *parts[] = {"alpha", ",", "beta", ",", "gamma-delta", ",", "epsilon", "!"};
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < 8; i++) {
            sb_append(&b, parts[i]);
            printf("buf len=%2zu cap=%3zu\n", b.len, b.cap);
        }
    printf("final: %s\n", b.s);
    free(b.s);

    char **strs = NULL;
    int ns = 0;
    for (int i = 0; i < 6; i++) {
        strs = realloc(strs, (size_t)(ns + 1) * sizeof(char *));
        strs[ns] = malloc(16);
        strcpy(strs[ns], "item-");
        strs[ns][5] = (char)('0' + i);
        strs[ns][6] = '\0';
        ns++;
    }
    for (int i = ns - 1; i >= 0; i--) { printf("%s\n", strs[i]); free(strs[i]); }
    free(strs);
    void *nothing = malloc(0);
    free(nothing);
    free(NULL);
    printf("done\n");
    return 0;
}
