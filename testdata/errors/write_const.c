/* Writing through a pointer to a string literal is WriteConst. */
int main(void) {
  char *s = "hello";
  s[0] = 'H'; // ERROR: WriteConst
  return s[0];
}
