// termination: false
// For y = 0 and x > 0 the loop never ends.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
    while (x > 0)
        x = x + y;
    return 0;
}
