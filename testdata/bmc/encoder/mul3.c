// x * 3u == 1u holds for one x in 2^32: x = 0xaaaaaaab (the inverse of 3).
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  if (x * 3u == 1u)
    reach_error();
  return 0;
}
