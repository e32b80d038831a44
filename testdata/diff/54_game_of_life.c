/* Tests 2D array updates via Conway's game of life on a small torus (glider + blinker), printed as text. */
#include <stdio.h>
#include <string.h>

#define W 16
#define H 10

static unsigned char grid[H][W], next_grid[H][W];

static int neighbours(int r, int c) {
    int n = 0;
    for (int dr = -1; dr <= 1; dr++)
        for (int dc = -1; dc <= 1; dc++) {
            if (!dr && !dc) continue;
            n += grid[(r + dr + H) % H][(c + dc + W) % W];
        }
    return n;
}

static void step(void) {
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            int n = neighbours(r, c);
            next_grid[r][c] = (unsigned char)(grid[r][c] ? (n == 2 || n == 3) : n == 3);
        }
    memcpy(grid, next_grid, sizeof grid);
}

static void show(int gen) {
    int alive = 0;
    char line[W + 1];
    printf("generation %d:\n", gen);
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < W; c++) { line[c] = grid[r][c] ? '#' : '.'; alive += grid[r][c]; }
        line[W] = '\0';
        printf("%s\n", line);
    }
    printf("alive=%d\n", alive);
}

int main(void) {
    /* glider */
    grid[0][1] = 1; grid[1][2] = 1; grid[2][0] = grid[2][1] = grid[2][2] = 1;
    /* blinker */
    grid[5][10] = grid[5][11] = grid[5][12] = 1;
    /* block */
    grid[8][3] = grid[8][4] = grid[9][3] = grid[9][4] = 1;
    show(0);
    for (int g = 1; g <= 8; g++) {
        step();
        if (g % 4 == 0) show(g);
    }
    for (int g = 9; g <= 24; g++) step();
    unsigned hash = 0;
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) hash = hash * 3u + grid[r][c];
    show(24);
    printf("hash=%u\n", hash);
    return 0;
}
