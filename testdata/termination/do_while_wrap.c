// termination: true
// x = 0 wraps to UINT_MAX, which counts down to 0.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
    unsigned int x = __VERIFIER_nondet_uint();
    do {
        x--;
    } while (x > 0);
    return 0;
}
