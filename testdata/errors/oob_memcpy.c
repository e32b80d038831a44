/* memcpy writing past the end of its destination is OutOfBounds, reported at
 * the call. */
#include <string.h>

int main(void) {
  char src[16] = "0123456789abcde";
  char dst[8];
  unsigned long n = sizeof src;
  memcpy(dst, src, n); // ERROR: OutOfBounds
  return dst[0];
}
