// A local variable read before it is written: C leaves its value
// indeterminate, and SV-COMP reads it as any value of its type, so
// reach_error() is reachable (x = 42). With fresh stack memory zeroed and
// nothing more, every engine proved this program safe: a wrong TRUE.
extern void abort(void);
void reach_error(void) { abort(); }
int main(void) {
  int x;
  int y = 3;
  if (x == 42 && y == 3)
    reach_error();
  return 0;
}
