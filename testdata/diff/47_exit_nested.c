/* Tests exit(n) called from deep inside nested/recursive functions; output before exit must be flushed; exits 7. */
#include <stdio.h>
#include <stdlib.h>

static int depth_reached;

static void check(int depth, int value) {
    if (value > 1000) {
        printf("value %d exceeded limit at depth %d, exiting with 7\n", value, depth);
        exit(7);
    }
}

static int descend(int depth, int value) {
    depth_reached = depth;
    if (depth > 50) return 0; /* never reached: check() exits first */
    printf("depth %2d value %d\n", depth, value);
    check(depth, value);
    return descend(depth + 1, value * 2 + depth) + 1;
}

int main(void) {
    printf("starting\n");
    int r = descend(0, 1);
    printf("never printed %d\n", r);
    return 0;
}
