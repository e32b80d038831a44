/* Tests char arithmetic: rot13, Caesar, Vigenere, hand-written ctype helpers, hex encode/decode, run-length encoding. */
#include <stdio.h>
#include <string.h>

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static int to_lower(int c) { return is_upper(c) ? c + ('a' - 'A') : c; }

static void caesar(char *s, int k) {
    k = ((k % 26) + 26) % 26;
    for (; *s; s++) {
        if (is_alpha(*s)) {
            char base = is_upper(*s) ? 'A' : 'a';
            *s = (char)(base + (*s - base + k) % 26);
        }
    }
}

static void vigenere(char *s, const char *key, int decrypt) {
    size_t kl = strlen(key), ki = 0;
    for (; *s; s++) {
        if (!is_alpha(*s)) continue;
        int shift = to_lower(key[ki++ % kl]) - 'a';
        if (decrypt) shift = 26 - shift;
        char base = is_upper(*s) ? 'A' : 'a';
        *s = (char)(base + (*s - base + shift) % 26);
    }
}

static void hex_encode(const char *in, char *out) {
    static const char hx[] = "0123456789ABCDEF";
    for (; *in; in++) {
        unsigned char c = (unsigned char)*in;
        *out++ = hx[c >> 4];
        *out++ = hx[c & 15];
    }
    *out = '\0';
}

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'A' + 10; }

static void hex_decode(const char *in, char *out) {
    while (in[0] && in[1]) { *out++ = (char)(hexval(in[0]) * 16 + hexval(in[1])); in += 2; }
    *out = '\0';
}

static void rle(const char *in, char *out) {
    while (*in) {
        char c = *in;
        int n = 0;
        while (*in == c && n < 9) { in++; n++; }
        *out++ = (char)('0' + n);
        *out++ = c;
    }
    *out = '\0';
}

int main(void) {
    char msg[64];
    strcpy(msg, "Hello, World! Wyvern interprets LLVM IR.");
    for (int k = 0; k <= 26; k += 13) {
        char t[64];
        strcpy(t, msg);
        caesar(t, k);
        printf("caesar %2d: %s\n", k, t);
    }
    char t[64];
    strcpy(t, msg);
    caesar(t, -3);
    printf("caesar -3: %s\n", t);
    caesar(t, 3);
    printf("restored : %s (same=%d)\n", t, strcmp(t, msg) == 0);
    strcpy(t, "Attack at dawn, Zebra");
    vigenere(t, "LEMON", 0);
    printf("vigenere : %s\n", t);
    vigenere(t, "LEMON", 1);
    printf("decrypted: %s\n", t);
    char hex[130], back[64];
    hex_encode(msg, hex);
    printf("hex: %s\n", hex);
    hex_decode(hex, back);
    printf("decoded: %s (match=%d)\n", back, strcmp(back, msg) == 0);
    const char *rl[] = {"aaabccddddd", "abc", "zzzzzzzzzzzzz", ""};
    for (int i = 0; i < 4; i++) {
        char out[64];
        rle(rl[i], out);
        printf("rle(\"%s\") = \"%s\"\n", rl[i], out);
    }
    int hist[26] = {0};
    for (const char *p = "The quick brown fox jumps over the lazy dog"; *p; p++)
        if (is_alpha(*p)) hist[to_lower(*p) - 'a']++;
    for (int i = 0; i < 26; i++) printf("%c%d%s", 'a' + i, hist[i], i % 13 == 12 ? "\n" : " ");
    for (int c = 32; c < 127; c += 16) {
        for (int k = c; k < c + 16 && k < 127; k++) printf("%c", (char)k);
        printf("\n");
    }
    return 0;
}
