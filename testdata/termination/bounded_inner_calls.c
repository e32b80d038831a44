// termination: true
// A loop calling a function with a loop.
extern int __VERIFIER_nondet_int(void);
int sum_to(int n) {
    int s = 0;
    for (int k = 0; k < n; k++)
        s += k;
    return s;
}
int main(void) {
    int m = __VERIFIER_nondet_int(), t = 0;
    for (int i = 0; i < m; i++)
        t += sum_to(i);
    return t;
}
