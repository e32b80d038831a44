/* Tests short-circuit && and || with side effects, ternaries (nested, as lvalue choice), and boolean logic. */
#include <stdio.h>

static int calls;
static char trace[256];
static int tpos;

static int t(int id, int v) {
    calls++;
    if (tpos < 250) { trace[tpos++] = (char)('0' + id); trace[tpos] = '\0'; }
    return v;
}

static void reset(void) { calls = 0; tpos = 0; trace[0] = '\0'; }

int main(void) {
    for (int a = 0; a <= 1; a++)
        for (int b = 0; b <= 1; b++)
            for (int c = 0; c <= 1; c++) {
                reset();
                int r1 = t(1, a) && t(2, b) && t(3, c);
                printf("a=%d b=%d c=%d: and=%d trace=%s", a, b, c, r1, trace);
                reset();
                int r2 = t(1, a) || t(2, b) || t(3, c);
                printf(" or=%d trace=%s", r2, trace);
                reset();
                int r3 = (t(1, a) && t(2, b)) || t(3, c);
                printf(" mix=%d trace=%s\n", r3, trace);
            }
    int x = 0;
    int r = (x != 0) && (10 / x > 1);
    printf("guarded division: %d\n", r);
    int *p = 0;
    int safe = p && *p;
    printf("null guard: %d\n", safe);
    int i = 0;
    int res = (i++ > 0) || (i++ > 0) || (i++ > 5);
    printf("i after chain = %d res=%d\n", i, res);
    /* ternaries */
    for (int v = -3; v <= 3; v++) {
        const char *s = v < 0 ? "neg" : v == 0 ? "zero" : v < 2 ? "small" : "big";
        int clamp = v < -1 ? -1 : (v > 1 ? 1 : v);
        printf("v=%d %s clamp=%d abs=%d\n", v, s, clamp, v < 0 ? -v : v);
    }
    int aa = 1, bb = 2;
    *(aa < bb ? &aa : &bb) = 99;
    printf("aa=%d bb=%d\n", aa, bb);
    reset();
    int tv = t(1, 1) ? t(2, 20) : t(3, 30);
    printf("ternary picks %d trace=%s calls=%d\n", tv, trace, calls);
    /* boolean normalisation */
    int vals[] = {0, 1, 2, -1, 256};
    for (int k = 0; k < 5; k++) {
        int v = vals[k];
        printf("v=%d !v=%d !!v=%d v&&1=%d v||0=%d (v!=0)^1=%d\n", v, !v, !!v, v && 1, v || 0, (v != 0) ^ 1);
    }
    _Bool b1 = 5, b2 = 0;
    printf("bools %d %d %d %d\n", b1, b2, b1 + b1, b1 & !b2);
    /* De Morgan check over all pairs */
    int ok = 1;
    for (int p1 = 0; p1 < 2; p1++)
        for (int q1 = 0; q1 < 2; q1++) ok &= (!(p1 && q1)) == (!p1 || !q1) && (!(p1 || q1)) == (!p1 && !q1);
    printf("de morgan ok=%d\n", ok);
    reset();
    int cnt = 0;
    for (int k = 0; k < 10; k++)
        if (t(k % 10, k % 2) && t(k % 10, k % 3 == 0)) cnt++;
    printf("cnt=%d calls=%d trace=%s\n", cnt, calls, trace);
    return 0;
}
