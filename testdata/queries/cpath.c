/* Globals with arrays, structs and pointers, for the query language's
 * paths into C variables (query/cpath_test.go): buf[2], q.head, p->next. */
struct node {
  int val;
  struct node *next;
};
struct queue {
  int head, tail;
  unsigned char buf[8];
};
typedef struct queue queue_t;

struct node n2 = {7, 0};
struct node n1 = {5, &n2};
struct node *p = &n1;
queue_t q = {1, 3, {10, 20, 250, 0}};
int grid[2][3] = {{1, 2, 3}, {4, 5, -6}};
double d = 1.5;

int main(void) {
  q.head = 2;
  p = p->next;
  return 0;
}
