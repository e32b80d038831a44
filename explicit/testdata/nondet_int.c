/* nondet_int.c -- a 32-bit nondeterministic input cannot be enumerated. */
int __VERIFIER_nondet_int(void);

int x;

int main(void) {
  x = __VERIFIER_nondet_int();
  return x == 7;
}
