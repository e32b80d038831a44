// termination: true
// Seed 002's strlen on a string of nondeterministic characters, terminated by 0.
extern char __VERIFIER_nondet_char(void);
extern unsigned int __VERIFIER_nondet_uint(void);
int strlen_(char *str) {
    char *s = str;
    while (*s)
        s++;
    return s - str;
}
int main(void) {
    char buf[64];
    unsigned int n = __VERIFIER_nondet_uint() % 64;
    for (unsigned int i = 0; i < n; i++)
        buf[i] = __VERIFIER_nondet_char();
    buf[n] = 0;
    return strlen_(buf) > 64;
}
