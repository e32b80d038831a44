// termination: true
// A lexicographic ranking function (i, j).
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
    while (i > 0) {
        if (j > 0) {
            j--;
        } else {
            i--;
            j = __VERIFIER_nondet_int();
        }
    }
    return 0;
}
