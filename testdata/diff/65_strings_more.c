/* strcat, strncat, strstr, strrchr, memchr and strchr on runtime data. */
#include <stdio.h>
#include <string.h>

int main(void) {
  char buf[80] = "";
  const char *parts[] = {"alpha", "-", "beta", "", "-gamma", "-delta"};
  for (int i = 0; i < 6; i++) { strcat(buf, parts[i]); printf("%zu [%s]\n", strlen(buf), buf); }
  char b2[32] = "xy";
  strncat(b2, "123456", 3); printf("[%s]\n", b2);
  strncat(b2, "ab", 10); printf("[%s]\n", b2);
  strncat(b2, "zzz", 0); printf("[%s]\n", b2);
  printf("%s\n", strcat(strcpy(b2, "re"), "turn"));
  const char *hay = "the cat sat on the mat with the hat";
  const char *needles[] = {"the", "at", "hat", "dog", "", "mat w", "t"};
  for (int i = 0; i < 7; i++) {
    const char *p = strstr(hay, needles[i]);
    printf("strstr(%s) = %d\n", needles[i], p ? (int)(p - hay) : -1);
  }
  for (const char *c = "tahz"; *c; c++) {
    const char *l = strrchr(hay, *c), *f = strchr(hay, *c);
    printf("%c: first %d last %d\n", *c, f ? (int)(f - hay) : -1, l ? (int)(l - hay) : -1);
  }
  printf("strrchr nul %d\n", (int)(strrchr(hay, '\0') - hay));
  unsigned char bytes[16];
  for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(i * 37);
  for (int v = 0; v < 256; v += 37) {
    unsigned char *p = memchr(bytes, v, sizeof bytes);
    printf("memchr %d -> %d\n", v, p ? (int)(p - bytes) : -1);
  }
  printf("memchr limited %d\n", memchr(bytes, 37 * 5, 5) == NULL);
  printf("memchr 0 len %d\n", memchr(bytes, 0, 0) == NULL);
  return 0;
}
