/* Bug (pointer arithmetic, one past the end; needs unwind 9): p walks over an
 * 8-byte buffer up to and including buf + 8, which may be formed but not
 * dereferenced. The 9th execution of the loop body writes *(buf + 8); with
 * unwind 8 it is not reached and the loop is not fully unrolled: incomplete. */
int main(void) {
  char buf[8];
  char *end = buf + 8;
  for (char *p = buf; p <= end; p++)
    *p = 0;
  return buf[0];
}
