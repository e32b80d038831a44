// termination: false
// An odd c never reaches 0 in steps of 2 (8-bit wrap-around).
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
    unsigned char c = __VERIFIER_nondet_uchar();
    while (c != 0)
        c += 2;
    return 0;
}
