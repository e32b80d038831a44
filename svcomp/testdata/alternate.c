// Does not terminate: from i = 1 (or any odd i), i alternates between 1
// and -1 (AlternKonv of SV-COMP's termination-restricted-15, shortened).
// The termination engine proves it with a recurrent set of the loop, whose
// witness ends at the loop's head; replay runs on from there and sees the
// run come back to a state it was in.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int i = __VERIFIER_nondet_int();
  while (i != 0) {
    if (i < 0) {
      i = i + 2;
      if (i < 0) {
        if (i <= -2147483647)
          return 0;
        i = -i;
      }
    } else {
      i = i - 2;
      if (i > 0)
        i = -i;
    }
  }
  return 0;
}
