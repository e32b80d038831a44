/* Shifting by an amount >= the bit width is ShiftOverflow. */
int main(void) {
  volatile int s = 32;
  unsigned v = 1u;
  unsigned r = v << s; // ERROR: ShiftOverflow
  return (int)r;
}
