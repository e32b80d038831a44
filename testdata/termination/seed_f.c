// termination: false
// Seed 001, Fig. 1: f does not terminate for x = UINT_MAX (j <= x always holds; j wraps).
extern unsigned int __VERIFIER_nondet_uint(void);
void f(unsigned int x) {
    unsigned int j = 0;
    while (j <= x)
        j++;
}
int main(void) { f(__VERIFIER_nondet_uint()); return 0; }
