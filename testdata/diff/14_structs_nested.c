/* Tests nested structs, arrays of structs, struct copy/assignment, and member access through pointers. */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct rect { struct point tl, br; char name[12]; };
struct shape {
    int kind;
    struct rect bounds;
    struct point verts[4];
    short flags;
    long long id;
};

static int area(const struct rect *r) { return (r->br.x - r->tl.x) * (r->br.y - r->tl.y); }

static void translate(struct rect *r, int dx, int dy) {
    r->tl.x += dx; r->tl.y += dy;
    r->br.x += dx; r->br.y += dy;
}

int main(void) {
    struct rect rs[5];
    for (int i = 0; i < 5; i++) {
        rs[i].tl.x = i; rs[i].tl.y = -i;
        rs[i].br.x = i * 3 + 2; rs[i].br.y = i * 2 + 1;
        strcpy(rs[i].name, "rect");
        rs[i].name[4] = (char)('A' + i);
        rs[i].name[5] = '\0';
    }
    for (int i = 0; i < 5; i++)
        printf("%s: (%d,%d)-(%d,%d) area=%d\n", rs[i].name, rs[i].tl.x, rs[i].tl.y, rs[i].br.x, rs[i].br.y, area(&rs[i]));
    struct rect copy = rs[2];
    translate(&copy, 10, 20);
    printf("orig %s (%d,%d) copy (%d,%d) area same=%d\n", rs[2].name, rs[2].tl.x, rs[2].tl.y, copy.tl.x, copy.tl.y,
           area(&rs[2]) == area(&copy));
    rs[0] = rs[4];
    printf("rs[0] now %s area %d\n", rs[0].name, area(&rs[0]));

    struct shape sh = {2, {{1, 2}, {30, 40}, "box"}, {{0, 0}, {5, 0}, {5, 5}, {0, 5}}, 7, 1234567890123LL};
    struct shape sh2;
    sh2 = sh;
    sh2.verts[2].x = 99;
    sh2.bounds.name[0] = 'B';
    printf("sh kind=%d name=%s flags=%d id=%lld\n", sh.kind, sh.bounds.name, sh.flags, sh.id);
    for (int i = 0; i < 4; i++)
        printf(" v%d sh=(%d,%d) sh2=(%d,%d)\n", i, sh.verts[i].x, sh.verts[i].y, sh2.verts[i].x, sh2.verts[i].y);
    printf("sh2 name=%s area=%d\n", sh2.bounds.name, area(&sh2.bounds));

    struct shape *ps = &sh2;
    struct point *pp = &ps->verts[1];
    pp->y = -5;
    pp[1].y = -6;
    printf("through ptr: %d %d\n", sh2.verts[1].y, sh2.verts[2].y);
    struct point pts[3] = {{1, 1}, {2, 4}, {3, 9}};
    int sx = 0, sy = 0;
    for (struct point *p = pts; p < pts + 3; p++) { sx += p->x; sy += p->y; }
    printf("sum pts = (%d,%d)\n", sx, sy);
    /* designated initialisers and zero fill */
    struct shape z = {.kind = 5, .verts[3] = {7, 8}, .id = -1};
    printf("z kind=%d bounds.tl=(%d,%d) v3=(%d,%d) v0=(%d,%d) id=%lld name0=%d\n", z.kind, z.bounds.tl.x,
           z.bounds.tl.y, z.verts[3].x, z.verts[3].y, z.verts[0].x, z.verts[0].y, z.id, z.bounds.name[0]);
    printf("sizeof point=%zu rect=%zu\n", sizeof(struct point), sizeof(struct rect));
    return 0;
}
