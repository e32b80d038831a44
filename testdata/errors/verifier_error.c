/* Calling __VERIFIER_error() is VerifierError. */
void __VERIFIER_error(void);

int main(void) {
  int x = 5;
  if (x > 3)
    __VERIFIER_error(); // ERROR: VerifierError
  return 0;
}
