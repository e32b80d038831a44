// wyvern-diff: args=hello,42,-7,,x=y,3.5
/* main(argc, argv): the arguments, argv[argc] == NULL, writable argument
   strings, and parsing them with atoi/strtod-free code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  printf("argc %d\n", argc);
  printf("argv[0] set %d\n", argv[0] != NULL && strlen(argv[0]) > 0);
  for (int i = 1; i < argc; i++) printf("argv[%d] = \"%s\" (%zu)\n", i, argv[i], strlen(argv[i]));
  printf("terminated %d\n", argv[argc] == NULL);
  int sum = 0;
  for (char **p = argv + 1; *p; p++) sum += atoi(*p);
  printf("sum %d\n", sum);
  argv[1][0] = 'J';
  printf("%s\n", argv[1]);
  char *eq = strchr(argv[5], '=');
  if (eq) { *eq = 0; printf("key %s value %s\n", argv[5], eq + 1); }
  return argc;
}
