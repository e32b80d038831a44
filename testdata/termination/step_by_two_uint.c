// termination: false
// An even x never equals 1 (steps of 2, 32-bit wrap-around): no run ends.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
    unsigned int x = __VERIFIER_nondet_uint() * 2;
    while (x != 1)
        x += 2;
    return 0;
}
