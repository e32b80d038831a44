// The error needs the loop's back edge taken 5 times.
extern void reach_error(void);
int main(void) {
  unsigned int n = 0;
  for (int i = 0; i < 5; i++)
    n++;
  if (n == 5)
    reach_error();
  return 0;
}
