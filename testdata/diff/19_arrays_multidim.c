/* Tests multi-dimensional arrays, global and local arrays with initialisers, partial init, array params. */
#include <stdio.h>

static int grid[4][5] = {
    {1, 2, 3, 4, 5},
    {6, 7, 8, 9, 10},
    {11, 12},
    {[4] = 99},
};
int cube[2][3][4];
static const char tictac[3][4] = {"XOX", "OXO", "XXO"};
static short partial[10] = {1, 2, 3};

static int row_sum(const int row[5]) {
    int s = 0;
    for (int i = 0; i < 5; i++) s += row[i];
    return s;
}

static void transpose3(int m[3][3]) {
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++) { int t = m[i][j]; m[i][j] = m[j][i]; m[j][i] = t; }
}

static int sum2d(int rows, int (*m)[5]) {
    int s = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < 5; j++) s += m[i][j];
    return s;
}

int main(void) {
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 5; j++) printf("%3d", grid[i][j]);
        printf("  | sum %d\n", row_sum(grid[i]));
    }
    printf("total %d\n", sum2d(4, grid));
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) cube[i][j][k] = i * 100 + j * 10 + k;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            printf("cube[%d][%d] = %d %d %d %d\n", i, j, cube[i][j][0], cube[i][j][1], cube[i][j][2], cube[i][j][3]);
    int *flat = &cube[0][0][0];
    int fs = 0;
    for (int i = 0; i < 24; i++) fs += flat[i];
    printf("flat sum %d, flat[13]=%d\n", fs, flat[13]);
    for (int i = 0; i < 3; i++) printf("row %d: %s\n", i, tictac[i]);
    int m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    transpose3(m);
    for (int i = 0; i < 3; i++) printf("T: %d %d %d\n", m[i][0], m[i][1], m[i][2]);
    for (int i = 0; i < 10; i++) printf("%d%c", partial[i], i == 9 ? '\n' : ' ');
    int local[6] = {[1] = 10, [4] = 40};
    for (int i = 0; i < 6; i++) printf("local[%d]=%d\n", i, local[i]);
    char msg[] = "array of chars";
    printf("sizeof msg=%zu sizeof grid=%zu sizeof grid[0]=%zu\n", sizeof msg, sizeof grid, sizeof grid[0]);
    /* Pascal triangle in 2D local array */
    int pas[10][10] = {{0}};
    for (int i = 0; i < 10; i++) {
        pas[i][0] = 1;
        for (int j = 1; j <= i; j++) pas[i][j] = pas[i - 1][j - 1] + pas[i - 1][j];
    }
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j <= i; j++) printf("%d ", pas[i][j]);
        printf("\n");
    }
    return 0;
}
