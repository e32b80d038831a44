// termination: true
// Loops over an array.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[10], s = 0;
    for (int i = 0; i < 10; i++)
        a[i] = __VERIFIER_nondet_int();
    for (int i = 0; i < 10; i++)
        s += a[i];
    return s;
}
