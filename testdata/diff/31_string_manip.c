/* Tests hand-written string routines: reversal, tokenising, trimming, case conversion, palindromes, itoa/atoi. */
#include <stdio.h>
#include <string.h>

static void reverse(char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; }
}

static int tokenize(char *s, const char *delims, char **out, int max) {
    int n = 0;
    char *p = s;
    while (*p && n < max) {
        while (*p && strchr(delims, *p)) p++;
        if (!*p) break;
        out[n++] = p;
        while (*p && !strchr(delims, *p)) p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

static char *trim(char *s) {
    while (*s == ' ') s++;
    char *e = s + strlen(s);
    while (e > s && e[-1] == ' ') e--;
    *e = '\0';
    return s;
}

static void upcase(char *s) { for (; *s; s++) if (*s >= 'a' && *s <= 'z') *s = (char)(*s - 'a' + 'A'); }

static int is_palindrome(const char *s) {
    const char *e = s + strlen(s);
    while (s < e) {
        while (s < e && *s == ' ') s++;
        while (e > s && e[-1] == ' ') e--;
        if (s >= e) break;
        if (*s != e[-1]) return 0;
        s++; e--;
    }
    return 1;
}

static void my_itoa(long long v, char *buf, int base) {
    char tmp[72];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do { int d = (int)(u % (unsigned)base); tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10); u /= (unsigned)base; } while (u);
    if (v < 0) tmp[n++] = '-';
    for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
}

static long long my_atoi(const char *s) {
    long long v = 0;
    int neg = 0;
    while (*s == ' ') s++;
    if (*s == '-' || *s == '+') neg = *s++ == '-';
    while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
    return neg ? -v : v;
}

int main(void) {
    char s1[] = "Hello, Wyvern!";
    reverse(s1);
    printf("reversed: %s\n", s1);
    reverse(s1);
    printf("restored: %s\n", s1);
    char line[] = "  alpha beta,gamma;;delta  epsilon,,zeta ";
    char *toks[16];
    int nt = tokenize(line, " ,;", toks, 16);
    printf("tokens: %d\n", nt);
    for (int i = 0; i < nt; i++) { reverse(toks[i]); printf(" tok[%d]=%s (len %zu)\n", i, toks[i], strlen(toks[i])); }
    char padded[] = "   trim me please    ";
    char *t = trim(padded);
    printf("trimmed: [%s]\n", t);
    upcase(t);
    printf("upper: [%s]\n", t);
    const char *pals[] = {"racecar", "a man a plan a canal panama", "hello", "", "ab ba", "abca"};
    for (int i = 0; i < 6; i++) printf("palindrome(\"%s\") = %d\n", pals[i], is_palindrome(pals[i]));
    long long nums[] = {0, 7, -7, 255, -256, 1234567890123LL, -9223372036854775807LL - 1};
    int bases[] = {10, 2, 16, 8};
    for (int i = 0; i < 7; i++) {
        char buf[80];
        for (int b = 0; b < 4; b++) {
            my_itoa(nums[i], buf, bases[b]);
            printf("%s%s", b ? " | " : "", buf);
        }
        printf("\n");
    }
    const char *ins[] = {"42", "  -17", "+99x", "", "-0", "9000000000000"};
    for (int i = 0; i < 6; i++) printf("atoi(\"%s\") = %lld\n", ins[i], my_atoi(ins[i]));
    /* word frequency of first letters */
    const char *sentence = "she sells sea shells by the sea shore";
    int freq[26] = {0};
    int start = 1;
    for (const char *p = sentence; *p; p++) {
        if (*p == ' ') { start = 1; continue; }
        if (start) freq[*p - 'a']++;
        start = 0;
    }
    for (int i = 0; i < 26; i++) if (freq[i]) printf("%c:%d ", 'a' + i, freq[i]);
    printf("\n");
    return 0;
}
