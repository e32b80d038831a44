// expect: unsafe
// An assume-like function that returns before its check when its argument is 0.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
void f(int c){ if (c) return; c = 1; if (!c) abort(); } int main(void){ int x = __VERIFIER_nondet_char(); f(x > 0); if (x <= 0) reach_error(); return 0; }
