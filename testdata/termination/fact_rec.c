// termination: true
// Recursion on a small argument.
extern unsigned char __VERIFIER_nondet_uchar(void);
unsigned int fact(unsigned int n) {
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}
int main(void) { return fact(__VERIFIER_nondet_uchar() % 20) == 0; }
