// termination: false
// x counts up until a signed overflow, undefined behaviour: C says nothing of what follows, and
// SV-COMP takes such a loop as non-terminating. The vm stops the run there, which must not make
// it a proof of termination (Wyvern answers UNKNOWN).
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x > 0)
        x++;
    return 0;
}
