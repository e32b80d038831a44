/* Tests integer matrix multiplication, transpose, identity, matrix power (Fibonacci), and determinant by cofactors. */
#include <stdio.h>
#include <stdint.h>

#define N 6

static void matmul(const int a[N][N], const int b[N][N], int c[N][N]) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

static void print_mat(const char *name, const int m[N][N]) {
    printf("%s:\n", name);
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) printf("%7d", m[i][j]);
        printf("\n");
    }
}

typedef struct { uint64_t m[2][2]; } mat2;

static mat2 mat2_mul(mat2 a, mat2 b) {
    mat2 r;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j];
    return r;
}

static uint64_t fib_mat(int n) {
    mat2 result = {{{1, 0}, {0, 1}}}, base = {{{1, 1}, {1, 0}}};
    while (n > 0) {
        if (n & 1) result = mat2_mul(result, base);
        base = mat2_mul(base, base);
        n >>= 1;
    }
    return result.m[0][1];
}

static long long det(const long long *m, int n) {
    if (n == 1) return m[0];
    long long sub[25];
    long long total = 0;
    for (int col = 0; col < n; col++) {
        int k = 0;
        for (int i = 1; i < n; i++)
            for (int j = 0; j < n; j++)
                if (j != col) sub[k++] = m[i * n + j];
        long long cof = m[col] * det(sub, n - 1);
        total += (col % 2 == 0) ? cof : -cof;
    }
    return total;
}

int main(void) {
    int a[N][N], b[N][N], c[N][N], id[N][N], t[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i + 1) * (j + 2) - 7;
            b[i][j] = (i * 3 + j * 5) % 11 - 5;
            id[i][j] = i == j;
            t[j][i] = a[i][j];
        }
    print_mat("A", a);
    print_mat("B", b);
    matmul(a, b, c);
    print_mat("A*B", c);
    int c2[N][N];
    matmul(a, id, c2);
    int same = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) same &= a[i][j] == c2[i][j];
    printf("A*I == A: %d\n", same);
    matmul(a, t, c2);
    int sym = 1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) sym &= c2[i][j] == c2[j][i];
    printf("A*At symmetric: %d trace=%d\n", sym, c2[0][0] + c2[1][1] + c2[2][2] + c2[3][3] + c2[4][4] + c2[5][5]);
    for (int n = 10; n <= 90; n += 20) printf("fib_mat(%d) = %llu\n", n, (unsigned long long)fib_mat(n));
    long long m3[9] = {2, -3, 1, 2, 0, -1, 1, 4, 5};
    long long m4[16] = {1, 0, 2, -1, 3, 0, 0, 5, 2, 1, 4, -3, 1, 0, 5, 0};
    long long m5[25];
    for (int i = 0; i < 25; i++) m5[i] = (i * 7 + 3) % 10 - 4;
    printf("det3=%lld det4=%lld det5=%lld\n", det(m3, 3), det(m4, 4), det(m5, 5));
    return 0;
}
