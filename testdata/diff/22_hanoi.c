/* Tests recursion via towers of Hanoi with explicit peg state; exits with code 3. */
#include <stdio.h>

static int pegs[3][10];
static int height[3];
static int moves;

static void move_disk(int from, int to) {
    int d = pegs[from][--height[from]];
    if (height[to] > 0 && pegs[to][height[to] - 1] < d) {
        printf("illegal move!\n");
        return;
    }
    pegs[to][height[to]++] = d;
    moves++;
    if (moves <= 40) printf("move %2d: disk %d %c -> %c\n", moves, d, 'A' + from, 'A' + to);
}

static void hanoi(int n, int from, int to, int via) {
    if (n == 0) return;
    hanoi(n - 1, from, via, to);
    move_disk(from, to);
    hanoi(n - 1, via, to, from);
}

int main(void) {
    for (int n = 1; n <= 8; n++) {
        height[0] = height[1] = height[2] = 0;
        for (int i = n; i >= 1; i--) pegs[0][height[0]++] = i;
        moves = 0;
        hanoi(n, 0, 2, 1);
        printf("n=%d moves=%d final heights %d %d %d top=%d\n", n, moves, height[0], height[1], height[2],
               pegs[2][height[2] - 1]);
    }
    return 3;
}
