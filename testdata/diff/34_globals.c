/* Tests global variables with initialisers: scalars, arrays, strings, pointers to globals, arrays of strings, struct globals. */
#include <stdio.h>
#include <string.h>

int g_int = 42;
long long g_ll = -5000000000LL;
unsigned char g_bytes[8] = {1, 2, 3, 250, 251, 252, 253, 254};
const char *g_names[] = {"alpha", "beta", "gamma", "delta", NULL};
char g_buf[16] = "mutable";
int *g_ptr = &g_int;
int g_arr[5] = {10, 20, 30, 40, 50};
int *g_arr_ptr = &g_arr[2];
int *g_end = g_arr + 5;
static int g_zero[4];
static double g_scale = 2.5;
struct config { const char *key; int value; const int *ref; };
struct config g_cfg[] = {
    {"width", 640, &g_arr[0]},
    {"height", 480, &g_arr[1]},
    {"depth", 24, &g_int},
};
const char g_msg[] = "global message";
const char *g_msg_ptr = g_msg + 7;
struct node { int v; struct node *next; };
struct node g_n3 = {3, NULL};
struct node g_n2 = {2, &g_n3};
struct node g_n1 = {1, &g_n2};
int (*g_fn)(int);
static int dbl(int x) { return 2 * x; }
static int (*const g_fn_table[2])(int) = {dbl, NULL};
const char *const *g_name_pp = &g_names[1];

static void bump(void) { g_int++; (*g_ptr) += 10; g_arr_ptr[1] *= 2; }

int main(void) {
    printf("g_int=%d g_ll=%lld\n", g_int, g_ll);
    for (int i = 0; i < 8; i++) printf("g_bytes[%d]=%u\n", i, g_bytes[i]);
    for (int i = 0; g_names[i]; i++) printf("name %d: %s (len %zu)\n", i, g_names[i], strlen(g_names[i]));
    printf("g_buf=%s\n", g_buf);
    strcpy(g_buf + 7, "-changed");
    printf("g_buf=%s\n", g_buf);
    bump();
    bump();
    printf("after bump g_int=%d *g_ptr=%d arr3=%d\n", g_int, *g_ptr, g_arr[3]);
    printf("g_arr_ptr-g_arr=%td g_end-g_arr_ptr=%td\n", g_arr_ptr - g_arr, g_end - g_arr_ptr);
    int zs = 0;
    for (int i = 0; i < 4; i++) zs += g_zero[i];
    printf("zero sum=%d scale*4=%d\n", zs, (int)(g_scale * 4));
    for (unsigned i = 0; i < sizeof g_cfg / sizeof g_cfg[0]; i++)
        printf("cfg %s=%d ref=%d\n", g_cfg[i].key, g_cfg[i].value, *g_cfg[i].ref);
    printf("msg=%s tail=%s sizeof=%zu\n", g_msg, g_msg_ptr, sizeof g_msg);
    for (struct node *n = &g_n1; n; n = n->next) printf("node %d\n", n->v);
    g_n2.next = NULL;
    int cnt = 0;
    for (struct node *n = &g_n1; n; n = n->next) cnt++;
    printf("nodes after cut=%d\n", cnt);
    printf("g_fn is null=%d\n", g_fn == NULL);
    g_fn = g_fn_table[0];
    printf("g_fn(21)=%d table[1] null=%d\n", g_fn(21), g_fn_table[1] == NULL);
    printf("g_name_pp -> %s, next %s\n", *g_name_pp, g_name_pp[1]);
    g_names[0] = "ALPHA";
    printf("names[0] now %s\n", g_names[0]);
    return g_int % 256;
}
