// expect: unsafe
// A signed range [-10, 10] read unsigned: -9 is 4294967287.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
int main(void){ signed char x = __VERIFIER_nondet_char(); int y = x > -10 ? x : -10; y = y < 10 ? y : 10; unsigned u = y; if (u <= 4294967286u && u > 10u) reach_error(); if (u == 4294967287u) reach_error(); return 0; }
