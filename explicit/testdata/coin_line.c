/* coin_line.c -- a breadth-first frontier of one or two states for a long
 * time: each turn either returns or goes on. The packed queue with
 * compaction empties at every turn and crosses its segments' ends while
 * empty (a queue that emptied and then opened a new segment once reported
 * itself empty). */
#include "wyvern.h"
int x = 0;
int main(void) {
  for (int i = 0; i < 5000; i++) {
    if (wyvern_coin(1, 2))
      return 1;
    x++;
  }
  return 0;
}
