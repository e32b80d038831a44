// termination: true
// A signed counter compared as unsigned: from i >= 0 it reaches 0 (for i < 0, i-- would
// overflow, undefined behaviour: the program leaves first).
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int i = __VERIFIER_nondet_int();
    if (i < 0)
        return 0;
    while ((unsigned)i > 0u)
        i--;
    return 0;
}
