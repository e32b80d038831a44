// termination: true
// Euclid's algorithm with remainders over unsigned ints.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
    unsigned int a = __VERIFIER_nondet_uint(), b = __VERIFIER_nondet_uint();
    while (b != 0) {
        unsigned int t = b;
        b = a % b;
        a = t;
    }
    return a == 0;
}
