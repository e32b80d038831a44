/* An uninitialised local read before it is written (ir/uninit.go: its value
 * is an input) and used as a whole 32-bit value: exhaustive search refuses
 * it by name, rather than search the program as if it held 0. */
int main(void) {
  unsigned x;
  unsigned y = x * 2654435761u;
  return (int)(y >> 28);
}
