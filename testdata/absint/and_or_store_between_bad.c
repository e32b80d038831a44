// expect: unsafe
// A || whose second half changes the variable the first half tested.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
int main(void){ int x = __VERIFIER_nondet_char(); if (x < 0 || (x = x - 20, x > 100)) return 0; if (x < 0) reach_error(); return 0; }
