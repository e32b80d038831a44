// The counter is reset before it reaches its bound: the loop never ends
// (the state at its head repeats every five iterations).
int main(void) {
  int i = 0;
  while (i < 10) {
    i++;
    if (i == 5) {
      i = 0;
    }
  }
  return 0;
}
