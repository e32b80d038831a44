/* Executing __builtin_trap() (llvm.trap) is Trap. */
int main(void) {
  volatile int bad = 1;
  if (bad)
    __builtin_trap(); // ERROR: Trap
  return 0;
}
