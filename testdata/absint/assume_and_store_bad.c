// expect: unsafe
// An assume whose && stores to the tested variable after the comparison.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
void f(int c){ if (!c) abort(); } int main(void){ int x = __VERIFIER_nondet_char(); f(x > 0 && (x = -5, 1)); if (x < 0) reach_error(); return 0; }
