// termination: true
// Nested loops: the inner bound is the outer counter.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int(), c = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            c++;
    return c;
}
