// Bit-field runs of 24 and 48 bits, which clang reads and writes as i24 and
// i48: 3 and 6 bytes (their store sizes), not 4 and 8 (their allocation
// sizes). Safe: the char after the 24-bit run keeps its value, and the runs
// at the end of the packed structs p and q are read and written inside them
// (an access of the allocation size would pass their ends: OutOfBounds).
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
#pragma pack(push)
#pragma pack(1)
struct p24 { char c; unsigned a : 24; };
struct p48 { unsigned f0 : 18; signed f1 : 24; };
#pragma pack(pop)
struct run24 { unsigned a : 20; unsigned b : 4; char c; };
struct p24 p = {'c', 1};
struct p48 q = {2, -3};
struct run24 r = {4, 5, 'x'};
int main(void) {
  unsigned char n = __VERIFIER_nondet_uchar();
  p.a = n + 1u;
  q.f1 = -(int)n;
  q.f0 = n;
  r.a = n;
  if (p.c != 'c' || p.a != n + 1u || q.f0 != n || q.f1 != -(int)n || r.c != 'x' || r.b != 5 || r.a != n)
    reach_error();
  return 0;
}
