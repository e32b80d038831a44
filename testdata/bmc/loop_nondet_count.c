/* Bug (needs unwind 6): a loop continues on nondet Booleans; the error needs
 * exactly 6 executions of its body. At unwind 5 the error is out of reach and
 * the loop can run again: incomplete. Random simulation finds it (2^-7). */
extern _Bool __VERIFIER_nondet_bool(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(1, 1, 1, 1, 1, 1, 0)
#endif

int main(void) {
  int n = 0;
  while (__VERIFIER_nondet_bool())
    n++;
  if (n == 6)
    reach_error();
  return 0;
}
