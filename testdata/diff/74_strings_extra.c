/* strdup, strndup, strnlen, strspn, strcspn, strpbrk, strcasecmp,
   strncasecmp, strtok, strtok_r and stpcpy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int main(void) {
  char *d = strdup("duplicate me");
  char *n = strndup("abcdef", 3);
  char *n2 = strndup("xy", 10);
  printf("[%s] [%s] [%s] %zu %zu %zu\n", d, n, n2, strlen(d), strnlen(d, 5), strnlen("ab", 9));
  d[0] = 'D';
  printf("%s\n", d);
  free(d); free(n); free(n2);
  const char *s = "  \t hello, world; 42";
  printf("spn %zu cspn %zu cspn-all %zu spn-none %zu\n", strspn(s, " \t"), strcspn(s, ",;"), strcspn(s, "#"), strspn(s, "x"));
  const char *p = strpbrk(s, ";,");
  printf("pbrk [%s] none %d\n", p, strpbrk(s, "#@") == NULL);
  const char *pairs[][2] = {{"Hello", "hello"}, {"abc", "ABD"}, {"Zeta", "alpha"}, {"", "a"}, {"MiXeD", "mixed!"}};
  for (int i = 0; i < 5; i++)
    printf("casecmp(%s,%s) %d ncase3 %d\n", pairs[i][0], pairs[i][1], strcasecmp(pairs[i][0], pairs[i][1]) > 0 ? 1 : strcasecmp(pairs[i][0], pairs[i][1]) < 0 ? -1 : 0,
           strncasecmp(pairs[i][0], pairs[i][1], 3) > 0 ? 1 : strncasecmp(pairs[i][0], pairs[i][1], 3) < 0 ? -1 : 0);
  char line[] = ",,alpha,beta;;gamma,,delta;";
  for (char *tok = strtok(line, ",;"); tok; tok = strtok(NULL, ",;")) printf("tok [%s]\n", tok);
  printf("after: %d\n", strtok(NULL, ",") == NULL);
  char csv[] = "k1=v1&k2=v2&k3";
  char *outer, *inner;
  for (char *kv = strtok_r(csv, "&", &outer); kv; kv = strtok_r(NULL, "&", &outer)) {
    char *k = strtok_r(kv, "=", &inner);
    char *v = strtok_r(NULL, "=", &inner);
    printf("key %s value %s\n", k, v ? v : "(none)");
  }
  char buf[64];
  char *e = stpcpy(buf, "abc");
  e = stpcpy(e, "-def");
  printf("%s %d\n", buf, (int)(e - buf));
  char empty[] = ";;;";
  printf("all delimiters %d\n", strtok(empty, ";") == NULL);
  return 0;
}
