// expect: unsafe
// A pointer moved by its own address' distance from 0 is null: "a pointer
// into an object is never null" holds only of offsets within the object's
// block (LP64: &g is 1 << 32 | 8192; ILP32: the store of p has no 32-bit
// form, ResourceLimit).
extern void reach_error(void);
int g;
int main(void) {
  long long k = (sizeof(long) == 8 ? 4294975487LL : 2162687LL);
  k = k + 1;
  char *p = (char *)&g - k;
  if (p == 0)
    reach_error();
  return 0;
}
