// termination: true
// Euclid's algorithm by subtraction on positive ints.
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
    __VERIFIER_assume(a > 0 && b > 0);
    while (a != b) {
        if (a > b)
            a = a - b;
        else
            b = b - a;
    }
    return a;
}
