// termination: false
extern _Bool __VERIFIER_nondet_bool(void);
int main(void) {
    int n = 0;
    while (__VERIFIER_nondet_bool())
        n = 1;
    return n;
}
