// termination: true
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int i = __VERIFIER_nondet_int();
    while (i > 0)
        i--;
    return 0;
}
