// termination: true
// Seed 001: h counts down to 0.
extern unsigned int __VERIFIER_nondet_uint(void);
void h(unsigned int j) {
    while (j > 0)
        j--;
}
int main(void) { h(__VERIFIER_nondet_uint()); return 0; }
