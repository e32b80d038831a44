// a[i] with i < 5 on an array of 4: out of bounds for i == 4 only.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  int a[4] = {0, 1, 2, 3};
  unsigned int i = __VERIFIER_nondet_uint();
  if (i < 5)
    a[i] = 7;
  return a[0];
}
