/* Bug (array out of bounds, unsigned range check): `i - 1 < 10` is the range
 * test 1 <= i <= 10 (i == 0 wraps to UINT_MAX), meant for 1-based indices,
 * but the access a[i] is 0-based: i == 10 reads past the array. One input in
 * 2^32: random simulation misses it. */
extern unsigned int __VERIFIER_nondet_uint(void);

#ifdef WITNESS
WITNESS_INPUTS(10)
#endif

int main(void) {
  int a[10] = {0};
  unsigned i = __VERIFIER_nondet_uint();
  if (i - 1u < 10u)
    return a[i];
  return 0;
}
