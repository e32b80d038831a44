// Division by a nondet that can be 0.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int d = __VERIFIER_nondet_uint();
  unsigned int q = 100u / d;
  return (int)q;
}
