// termination: true
// Mutual recursion.
extern unsigned char __VERIFIER_nondet_uchar(void);
int odd(unsigned n);
int even(unsigned n) { return n == 0 ? 1 : odd(n - 1); }
int odd(unsigned n) { return n == 0 ? 0 : even(n - 1); }
int main(void) { return even(__VERIFIER_nondet_uchar()); }
