// termination: false
// The loop ends only when an input is 0: a run whose inputs never are goes on.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    while (1) {
        if (__VERIFIER_nondet_int() == 0)
            break;
    }
    return 0;
}
