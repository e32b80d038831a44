/* wyvern_coin with num > den is an invalid argument: BadArgument. */
#include "wyvern.h"

int main(void) {
  int c = wyvern_coin(3, 2); // ERROR: BadArgument
  return c;
}
