/* Bug (out of bounds in a 2-D array): j may be 4 in m[3][4]. m[i][4] for
 * i < 2 stays inside the object (it is m[i+1][0]; undefined in C but within
 * the block, as the vm and ASan see it), m[2][4] is past its end. */
int wyvern_uniform(int lo, int hi);

#ifdef WITNESS
WITNESS_INPUTS(2, 4)
#endif

int main(void) {
  int m[3][4] = {{0}};
  int i = wyvern_uniform(0, 2);
  int j = wyvern_uniform(0, 4);
  m[i][j] = 1;
  return m[0][0];
}
