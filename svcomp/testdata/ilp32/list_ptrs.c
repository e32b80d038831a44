// A heap list whose next pointers are 4 bytes: nodes of 8 bytes, followed to the end.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }

extern void *malloc(unsigned int);
struct node { int v; struct node *next; };
int main(void) {
  struct node *h = 0;
  for (int i = 1; i <= 3; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 0;
    n->v = i; n->next = h; h = n;
  }
  int s = 0;
  for (struct node *p = h; p; p = p->next) s += p->v;
  if (sizeof(struct node) != 8 || s != 6) reach_error();
  return 0;
}
