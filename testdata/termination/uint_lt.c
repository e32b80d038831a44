// termination: true
// The strict form of seed 001's f terminates.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
    unsigned int x = __VERIFIER_nondet_uint(), j = 0;
    while (j < x)
        j++;
    return 0;
}
