// termination: false
// Infinite recursion (the vm ends it at its stack limit, which is no termination).
void f(int n) { f(n + 1); }
int main(void) {
    f(0);
    return 0;
}
