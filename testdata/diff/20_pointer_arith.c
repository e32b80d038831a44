/* Tests pointer arithmetic, pointer differences, pointer comparisons within arrays, pointers to pointers. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct rec { int id; char name[6]; double w; };

static int *find(int *begin, int *end, int v) {
    for (int *p = begin; p != end; p++)
        if (*p == v) return p;
    return end;
}

static void reverse(int *b, int *e) {
    while (b < e) { --e; int t = *b; *b = *e; *e = t; b++; }
}

int main(void) {
    int a[16];
    for (int i = 0; i < 16; i++) a[i] = i * i - 20;
    int *p = a, *q = a + 16;
    printf("q - p = %td\n", q - p);
    int *f = find(a, a + 16, 29);
    printf("found 29 at index %td\n", f - a);
    printf("find 1000 -> end? %d\n", find(a, a + 16, 1000) == a + 16);
    int *mid = a + 8;
    printf("mid[-2]=%d mid[2]=%d *(mid+3)=%d 3[a]=%d\n", mid[-2], mid[2], *(mid + 3), 3[a]);
    printf("mid>p %d mid<q %d mid==a+8 %d\n", mid > p, mid < q, mid == &a[8]);
    reverse(a, a + 16);
    for (int *r = a; r < a + 16; r += 3) printf("a[%td]=%d\n", r - a, *r);
    struct rec recs[4] = {{1, "one", 1.5}, {2, "two", 2.5}, {3, "three", 3.5}, {4, "four", 4.5}};
    struct rec *rp = recs;
    rp += 2;
    printf("rp->name=%s diff=%td\n", rp->name, rp - recs);
    char *cp = (char *)rp;
    char *cb = (char *)recs;
    printf("byte diff = %td (sizeof rec %zu)\n", cp - cb, sizeof(struct rec));
    printf("offsetof name=%zu w=%zu\n", offsetof(struct rec, name), offsetof(struct rec, w));
    struct rec *back = (struct rec *)(cp - sizeof(struct rec));
    printf("back->id=%d\n", back->id);
    /* pointer to pointer */
    int x = 5, y = 7;
    int *px = &x, *py = &y;
    int **pp = &px;
    **pp = 50;
    pp = &py;
    **pp += 3;
    printf("x=%d y=%d\n", x, y);
    int *ptrs[3] = {&x, &y, &a[0]};
    for (int i = 0; i < 3; i++) *ptrs[i] *= 2;
    printf("x=%d y=%d a0=%d\n", x, y, a[0]);
    /* walking a string with pointers */
    const char *s = "pointer walking";
    const char *e = s;
    while (*e) e++;
    printf("strlen via ptr = %td\n", e - s);
    int vowels = 0;
    for (const char *c = s; c < e; c++) vowels += (*c == 'a' || *c == 'e' || *c == 'i' || *c == 'o' || *c == 'u');
    printf("vowels=%d\n", vowels);
    /* uintptr_t round trip and alignment check (value itself not printed) */
    uintptr_t ip = (uintptr_t)&a[5];
    int *back5 = (int *)ip;
    printf("round trip ok=%d aligned=%d\n", back5 == &a[5], (int)(ip % sizeof(int) == 0));
    /* 2D through pointer arithmetic */
    int m[3][4];
    for (int i = 0; i < 12; i++) (&m[0][0])[i] = i;
    int (*row)[4] = m + 1;
    printf("row[0][2]=%d row[1][3]=%d rows diff=%td\n", row[0][2], row[1][3], (m + 3) - row);
    return 0;
}
