// termination: true
// c wraps to 0 (8-bit).
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
    unsigned char c = __VERIFIER_nondet_uchar();
    while (c != 0)
        c++;
    return 0;
}
