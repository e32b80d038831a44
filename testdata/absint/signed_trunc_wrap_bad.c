// expect: unsafe
// A signed range [-128, 10] minus 1, truncated to 8 bits, wraps to 127.
extern signed char __VERIFIER_nondet_char(void);
extern void reach_error(void);
extern void abort(void);
int main(void){ signed char x = __VERIFIER_nondet_char(); signed char y = x < 10 ? x : 10; signed char z = (signed char)(y - 1); if (z > 10) reach_error(); return 0; }
