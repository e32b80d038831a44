/* Tests a fixed-size ring buffer queue and an array stack with wrap-around indices, plus a BFS on a grid maze. */
#include <stdio.h>
#include <string.h>

#define QCAP 8

struct ring { int data[QCAP]; unsigned head, tail; };

static int ring_push(struct ring *r, int v) {
    if (r->tail - r->head == QCAP) return 0;
    r->data[r->tail++ % QCAP] = v;
    return 1;
}
static int ring_pop(struct ring *r, int *v) {
    if (r->tail == r->head) return 0;
    *v = r->data[r->head++ % QCAP];
    return 1;
}

static const char *maze[] = {
    "S.#.......",
    ".##.####..",
    "....#..#.#",
    "##.##.##..",
    "...#...#.#",
    ".#...#...E",
};
#define MR 6
#define MC 10

int main(void) {
    struct ring r = {{0}, 0xFFFFFFFAu, 0xFFFFFFFAu}; /* start near unsigned wrap */
    for (int i = 1; i <= 10; i++) printf("push %d -> %d\n", i, ring_push(&r, i * 10));
    int v;
    for (int i = 0; i < 3; i++) if (ring_pop(&r, &v)) printf("pop -> %d\n", v);
    for (int i = 11; i <= 14; i++) printf("push %d -> %d\n", i, ring_push(&r, i * 10));
    while (ring_pop(&r, &v)) printf("drain -> %d (head=%u)\n", v, r.head);
    int stack[32], sp = 0;
    const char *brackets[] = {"([]{})", "([)]", "((()", "{[()()]}", "", "}{"};
    for (int t = 0; t < 6; t++) {
        sp = 0;
        int ok = 1;
        for (const char *p = brackets[t]; *p && ok; p++) {
            char c = *p;
            if (c == '(' || c == '[' || c == '{') stack[sp++] = c;
            else {
                char want = c == ')' ? '(' : c == ']' ? '[' : '{';
                if (sp == 0 || stack[--sp] != want) ok = 0;
            }
        }
        printf("balanced(\"%s\") = %d\n", brackets[t], ok && sp == 0);
    }
    /* BFS using a larger queue of packed coordinates */
    int dist[MR][MC];
    memset(dist, 0xff, sizeof dist); /* all -1 */
    int q[MR * MC], qh = 0, qt = 0;
    q[qt++] = 0;
    dist[0][0] = 0;
    int er = -1, ec = -1;
    while (qh < qt) {
        int cur = q[qh++], cr = cur / MC, cc = cur % MC;
        if (maze[cr][cc] == 'E') { er = cr; ec = cc; break; }
        static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
        for (int k = 0; k < 4; k++) {
            int nr = cr + dr[k], nc = cc + dc[k];
            if (nr < 0 || nr >= MR || nc < 0 || nc >= MC) continue;
            if (maze[nr][nc] == '#' || dist[nr][nc] != -1) continue;
            dist[nr][nc] = dist[cr][cc] + 1;
            q[qt++] = nr * MC + nc;
        }
    }
    printf("exit at (%d,%d) distance %d, visited %d\n", er, ec, er >= 0 ? dist[er][ec] : -1, qt);
    for (int i = 0; i < MR; i++) {
        for (int j = 0; j < MC; j++) {
            if (maze[i][j] == '#') printf("  #");
            else if (dist[i][j] < 0) printf("  .");
            else printf("%3d", dist[i][j]);
        }
        printf("\n");
    }
    return 0;
}
