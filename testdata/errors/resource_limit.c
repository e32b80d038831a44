// Allocating without end passes the per-run memory limit (512 MiB by
// default): the run ends in ResourceLimit instead of exhausting the host.
#include <stdlib.h>

int main(void) {
  for (;;) {
    char *p = malloc(1 << 20); // ERROR: ResourceLimit
    p[0] = 1;
  }
}
