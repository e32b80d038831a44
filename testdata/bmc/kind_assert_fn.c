/* Safe (k-induction; 500000 iterations): SV-COMP's __VERIFIER_assert as a
 * function, so each iteration allocates and frees the callee's frame (its
 * argument's slot): the havoc point is after one iteration, where the
 * allocation state no longer changes. x stays even; x += 2 cannot overflow
 * under the guard x < 10^6. */
void reach_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond)
    reach_error();
}

int main(void) {
  int x = 0;
  while (x < 1000000) {
    x += 2;
    __VERIFIER_assert(x % 2 == 0);
  }
  __VERIFIER_assert(x == 1000000);
  return 0;
}
