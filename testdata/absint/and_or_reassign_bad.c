// expect: unsafe
// A && whose second half reassigns the variable before its comparison.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
int main(void){ int x = __VERIFIER_nondet_char(); if (x >= 0 && (x = __VERIFIER_nondet_char(), x < 10)) { if (x < 0) reach_error(); } return 0; }
