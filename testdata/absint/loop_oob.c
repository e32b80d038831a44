// expect: unsafe
// The loop writes one element past the array.
extern void reach_error(void);
int a[10];
int main(void) {
  for (int i = 0; i <= 10; i++)
    a[i] = i;
  return 0;
}
