// termination: true
// Counting a signed int down, compared as unsigned: i reaches 0.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int i = __VERIFIER_nondet_int();
    while ((unsigned)i > 0u)
        i--;
    return 0;
}
