/* Unbounded recursion exhausts the call stack: StackOverflow. */
int depth(int n) {
  return depth(n + 1) + 1; // ERROR: StackOverflow
}

int main(void) {
  return depth(0);
}
