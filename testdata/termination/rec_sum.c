// termination: true
// Recursion on a wide input: the argument decreases at each recursive call.
extern int __VERIFIER_nondet_int(void);
int sum(int n) {
    if (n <= 0)
        return 0;
    return n + sum(n - 1);
}
int main(void) { return sum(__VERIFIER_nondet_int()); }
