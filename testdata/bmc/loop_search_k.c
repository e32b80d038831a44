/* Bug (needs unwind 13): linear search of an 8-bit key in a 20-element table;
 * the error is at the one table entry (index 12, value 77) that is mishandled,
 * reached in the 13th execution of the loop body. Unwind 12: incomplete. */
extern unsigned char __VERIFIER_nondet_uchar(void);
void reach_error(void);

#ifdef WITNESS
WITNESS_INPUTS(77)
#endif

int main(void) {
  static const int t[20] = {3, 9, 14, 20, 21, 33, 40, 41, 50, 58, 60, 66, 77, 80, 85, 90, 91, 95, 99, 100};
  int key = __VERIFIER_nondet_uchar();
  for (int i = 0; i < 20; i++) {
    if (t[i] == key) {
      if (i == 12)
        reach_error();
      return i;
    }
  }
  return -1;
}
