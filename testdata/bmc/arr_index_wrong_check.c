/* Bug (array out of bounds, nondet index checked wrongly): the check `i <= 10`
 * admits i == 10 and every negative i for a 10-element array. Half of the
 * random inputs are negative. */
extern int __VERIFIER_nondet_int(void);

#ifdef WITNESS
WITNESS_INPUTS(10)
#endif

int main(void) {
  int a[10] = {0};
  int i = __VERIFIER_nondet_int();
  if (i <= 10)
    a[i] = 1;
  return a[0];
}
