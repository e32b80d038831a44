/* Safe (array bounds): an 8-bit index checked against the array size before
 * every access, and a second access through a mask. Exhaustive natively. */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  int a[16] = {0};
  unsigned char i = __VERIFIER_nondet_uchar();
  if (i < 16)
    a[i] = 1;
  a[i & 15] += 2;
  return a[i % 16];
}
