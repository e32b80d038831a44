// INT_MIN / -1 overflows (the vm's ErrOverflow), for one x only.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  if (y < 0 && y > -2)
    return x / y;
  return 0;
}
