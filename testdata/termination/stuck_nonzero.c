// termination: false
// Any nonzero x stays as it is.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x != 0) {
        x = x * 1;
    }
    return 0;
}
