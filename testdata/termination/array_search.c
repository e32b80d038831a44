// termination: true
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a[32];
    int n = 32, key = __VERIFIER_nondet_int(), i = 0;
    for (int k = 0; k < n; k++)
        a[k] = __VERIFIER_nondet_int();
    while (i < n && a[i] != key)
        i++;
    return i;
}
