/* Bug (array out of bounds, off by one; needs unwind 11): the loop runs
 * i = 0..10 over a 10-element array; the 11th execution of its body writes
 * a[10]. With unwind 10 the write is never reached and the loop is not fully
 * unrolled: incomplete. Deterministic: every run hits it. */
int main(void) {
  int a[10];
  for (int i = 0; i <= 10; i++)
    a[i] = i;
  return a[0];
}
