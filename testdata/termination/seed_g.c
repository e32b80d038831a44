// termination: true
// Seed 001, Fig. 1: g terminates by wrap-around (j reaches 0 after UINT_MAX).
extern unsigned int __VERIFIER_nondet_uint(void);
void g(unsigned int j) {
    while (j > 0)
        j++;
}
int main(void) { g(__VERIFIER_nondet_uint()); return 0; }
