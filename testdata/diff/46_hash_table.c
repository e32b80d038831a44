/* Tests an open-addressing hash table (linear probing, tombstones, resize) keyed by strings, with word counting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct entry { char *key; int value; int state; }; /* state: 0 empty, 1 used, 2 deleted */
struct table { struct entry *e; size_t cap, used, tomb; long probes; };

static uint32_t hash_str(const char *s) {
    uint32_t h = 2166136261u;
    while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
    return h;
}

static char *dupstr(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    memcpy(d, s, n);
    return d;
}

static void ht_init(struct table *t, size_t cap) {
    t->e = calloc(cap, sizeof(struct entry));
    t->cap = cap;
    t->used = t->tomb = 0;
    t->probes = 0;
}

static void ht_put(struct table *t, const char *key, int value);

static void ht_resize(struct table *t, size_t ncap) {
    struct entry *old = t->e;
    size_t ocap = t->cap;
    long probes = t->probes;
    ht_init(t, ncap);
    t->probes = probes;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].state == 1) { ht_put(t, old[i].key, old[i].value); free(old[i].key); }
    free(old);
    printf("  resized to %zu\n", ncap);
}

static struct entry *ht_find(struct table *t, const char *key) {
    size_t i = hash_str(key) & (t->cap - 1);
    for (;;) {
        t->probes++;
        struct entry *e = &t->e[i];
        if (e->state == 0) return NULL;
        if (e->state == 1 && strcmp(e->key, key) == 0) return e;
        i = (i + 1) & (t->cap - 1);
    }
}

static void ht_put(struct table *t, const char *key, int value) {
    if ((t->used + t->tomb + 1) * 4 > t->cap * 3) ht_resize(t, t->cap * 2);
    struct entry *f = ht_find(t, key);
    if (f) { f->value = value; return; }
    size_t i = hash_str(key) & (t->cap - 1);
    while (t->e[i].state == 1) i = (i + 1) & (t->cap - 1);
    if (t->e[i].state == 2) t->tomb--;
    t->e[i].key = dupstr(key);
    t->e[i].value = value;
    t->e[i].state = 1;
    t->used++;
}

static int ht_del(struct table *t, const char *key) {
    struct entry *f = ht_find(t, key);
    if (!f) return 0;
    free(f->key);
    f->key = NULL;
    f->state = 2;
    t->used--;
    t->tomb++;
    return 1;
}

static void ht_free(struct table *t) {
    for (size_t i = 0; i < t->cap; i++) if (t->e[i].state == 1) free(t->e[i].key);
    free(t->e);
}

int main(void) {
    struct table t;
    ht_init(&t, 8);
    char text[] = "it was the best of times it was the worst of times it was the age of wisdom "
                  "it was the age of foolishness it was the epoch of belief it was the epoch of incredulity";
    char *p = text;
    int words = 0;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        char *w = p;
        while (*p && *p != ' ') p++;
        char saved = *p;
        *p = '\0';
        struct entry *e = ht_find(&t, w);
        if (e) e->value++;
        else ht_put(&t, w, 1);
        words++;
        *p = saved;
    }
    printf("words=%d unique=%zu cap=%zu\n", words, t.used, t.cap);
    const char *q[] = {"it", "was", "the", "of", "times", "age", "epoch", "wisdom", "missing", "belief"};
    for (int i = 0; i < 10; i++) {
        struct entry *e = ht_find(&t, q[i]);
        printf("count(%s) = %d\n", q[i], e ? e->value : 0);
    }
    int d1 = ht_del(&t, "the");
    int d2 = ht_del(&t, "nothing");
    int d3 = ht_del(&t, "of");
    printf("delete the=%d delete nothing=%d delete of=%d\n", d1, d2, d3);
    int f1 = ht_find(&t, "the") != NULL;
    int f2 = ht_find(&t, "of") != NULL;
    printf("after delete: the found %d, of found %d, used=%zu tomb=%zu\n", f1, f2, t.used, t.tomb);
    for (int i = 0; i < 40; i++) {
        char key[16] = "key";
        key[3] = (char)('a' + i % 26);
        key[4] = (char)('0' + i / 26);
        key[5] = '\0';
        ht_put(&t, key, i * i);
    }
    printf("after inserts used=%zu cap=%zu\n", t.used, t.cap);
    long total = 0;
    for (size_t i = 0; i < t.cap; i++) if (t.e[i].state == 1) total += t.e[i].value;
    printf("value total=%ld\n", total);
    struct entry *k = ht_find(&t, "keyz0");
    printf("keyz0=%d\n", k ? k->value : -1);
    printf("probes=%ld\n", t.probes);
    ht_free(&t);
    return 0;
}
