/* Tests the library string functions: strlen, strcmp, strncmp, strcpy, strncpy, strchr on runtime data. */
#include <stdio.h>
#include <string.h>

static int sgn(int x) { return (x > 0) - (x < 0); }

int main(void) {
    const char *words[] = {"", "a", "abc", "abd", "ab", "ABC", "abcdef", "zebra", "abc"};
    int n = 9;
    for (int i = 0; i < n; i++) printf("strlen(\"%s\") = %zu\n", words[i], strlen(words[i]));
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j += 2)
            printf("strcmp(\"%s\",\"%s\") sign %d, strncmp3 sign %d\n", words[i], words[j], sgn(strcmp(words[i], words[j])),
                   sgn(strncmp(words[i], words[j], 3)));
    char buf[32];
    strcpy(buf, "Hello");
    printf("strcpy -> %s (%zu)\n", buf, strlen(buf));
    strcpy(buf + strlen(buf), ", world");
    printf("concat -> %s (%zu)\n", buf, strlen(buf));
    char nb[10];
    memset(nb, 'X', sizeof nb);
    strncpy(nb, "abc", sizeof nb);
    printf("strncpy pads:");
    for (int i = 0; i < 10; i++) printf(" %d", nb[i]);
    printf("\n");
    memset(nb, 'X', sizeof nb);
    strncpy(nb, "truncate-me", 5);
    printf("strncpy no-term:");
    for (int i = 0; i < 10; i++) printf(" %c", nb[i]);
    printf("\n");
    nb[9] = '\0';
    printf("as string: %s\n", nb);
    char text[64];
    strcpy(text, "the quick brown fox jumps over the lazy dog");
    const char *targets = "qzxt e!";
    for (int i = 0; targets[i]; i++) {
        const char *p = strchr(text, targets[i]);
        if (p) printf("strchr '%c' at %td -> \"%s\"\n", targets[i], p - text, p);
        else printf("strchr '%c' not found\n", targets[i]);
    }
    const char *nul = strchr(text, '\0');
    printf("strchr nul at %td\n", nul - text);
    int count = 0;
    for (const char *p = strchr(text, 'o'); p; p = strchr(p + 1, 'o')) count++;
    printf("count of 'o' = %d\n", count);
    printf("strncmp equal prefix: %d %d\n", strncmp("prefix-one", "prefix-two", 7), sgn(strncmp("prefix-one", "prefix-two", 8)));
    printf("strncmp n=0: %d\n", strncmp("a", "b", 0));
    char hi[4] = {(char)0xC8, 0, 0, 0};
    char lo[4] = {'A', 0, 0, 0};
    printf("strcmp high byte vs A sign: %d\n", sgn(strcmp(hi, lo)));
    char path[64];
    strcpy(path, "/usr/local/lib/wyvern/libc.so");
    char *slash = path;
    int depth = 0;
    while ((slash = strchr(slash, '/')) != NULL) { depth++; slash++; }
    printf("path depth %d\n", depth);
    return 0;
}
