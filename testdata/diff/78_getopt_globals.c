/* Tests getopt's variables as a program that does not call getopt sees them: glibc's initial
   values (optind 1, opterr 1, optopt '?', optarg NULL), and they can be written. SV-COMP's
   busybox tasks read optind and optarg without calling getopt. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  printf("optind %d opterr %d optopt %d optarg %s\n", optind, opterr, optopt, optarg ? "set" : "null");
  optind += argc;
  optarg = argv[0];
  printf("optind %d optarg %s\n", optind, optarg == argv[0] ? "argv[0]" : "other");
  return optind;
}
