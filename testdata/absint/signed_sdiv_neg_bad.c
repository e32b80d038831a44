// expect: unsafe
// A signed range [-128, 10] divided by -1 reaches 128.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
int main(void){ signed char x = __VERIFIER_nondet_char(); int y = x < 10 ? x : 10; int z = y / -1; if (z >= 128) reach_error(); return 0; }
