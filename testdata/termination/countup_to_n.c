// termination: true
// i < n over signed ints: n - i decreases as an unsigned number.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    int i = 0;
    while (i < n)
        i++;
    return 0;
}
