// termination: true
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
    while (x > 0)
        x--;
    while (y < 100)
        y++;
    return x + y;
}
