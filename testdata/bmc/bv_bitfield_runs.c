// Bug: reach_error() when n = 200. Reaching it needs the store of the 24-bit
// bit-field run (an i24, 3 bytes) to leave the char after it alone: a store
// of 4 bytes, the i24's allocation size, would clear r.c and hide the bug.
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
struct run24 { unsigned a : 20; unsigned b : 4; char c; };
struct run24 r = {4, 5, 'x'};
int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  r.a = n;
  if (r.a == 200 && r.c == 'x' && r.b == 5)
    reach_error();
  return 0;
}
