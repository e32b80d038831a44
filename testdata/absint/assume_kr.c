// expect: proved
// Platform functions declared without prototypes (called through a
// bitcast pointer, as in many SV-COMP tasks), an assumption refining a
// value, and a main with parameters.
extern unsigned char __VERIFIER_nondet_uchar();
extern void __VERIFIER_assume();
extern void reach_error(void);
int main(int argc, char **argv) {
  int x = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(x >= 10);
  __VERIFIER_assume(x < 20);
  int y = x * 3 - 30;
  if (y < 0 || y > 27)
    reach_error();
  return 0;
}
