// A local array read before it is written: its bytes are an input
// (a wrong TRUE of every engine while fresh stack memory read as 0).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static int pick(int i) {
  char buf[4];
  buf[0] = 1;
  return buf[i & 3];
}
int main(void) {
  if (pick(__VERIFIER_nondet_int()) == 5)
    reach_error();
  return 0;
}
