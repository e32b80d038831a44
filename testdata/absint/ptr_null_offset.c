// expect: unsafe
// ILP32: a constant pointer far outside its object is an integer the vm
// cannot store as a pointer (no 32-bit form: ResourceLimit). LP64: it is
// null (&g is 1 << 32 | 8192 here).
extern void reach_error(void);
int g;
int main(void) {
  char *p = (char *)&g - (sizeof(long) == 8 ? 4294975488LL : 2162688LL);
  if (p == 0)
    reach_error();
  return 0;
}
