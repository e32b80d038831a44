/* Tests UTF-8 encoding/decoding with bit masks and shifts, code point validation, and byte dumps. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static int utf8_encode(uint32_t cp, unsigned char *out) {
    if (cp < 0x80) { out[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { out[0] = (unsigned char)(0xC0 | (cp >> 6)); out[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp <= 0x10FFFF) {
        out[0] = (unsigned char)(0xF0 | (cp >> 18));
        out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (unsigned char)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

/* returns bytes consumed, 0 on error */
static int utf8_decode(const unsigned char *s, uint32_t *cp) {
    unsigned char c = s[0];
    int len;
    uint32_t v;
    if (c < 0x80) { *cp = c; return 1; }
    else if ((c & 0xE0) == 0xC0) { len = 2; v = c & 0x1Fu; }
    else if ((c & 0xF0) == 0xE0) { len = 3; v = c & 0x0Fu; }
    else if ((c & 0xF8) == 0xF0) { len = 4; v = c & 0x07u; }
    else return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    static const uint32_t min_for_len[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min_for_len[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

int main(void) {
    uint32_t cps[] = {0x24, 0x7F, 0x80, 0xA2, 0x7FF, 0x800, 0x20AC, 0xD800, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0x110000};
    unsigned char buf[8];
    for (int i = 0; i < 13; i++) {
        int n = utf8_encode(cps[i], buf);
        printf("U+%06X -> %d bytes:", cps[i], n);
        for (int k = 0; k < n; k++) printf(" %02X", buf[k]);
        if (n) {
            uint32_t back = 0;
            int m = utf8_decode(buf, &back);
            printf("  decode len %d U+%04X %s", m, back, back == cps[i] ? "ok" : "BAD");
        }
        printf("\n");
    }
    const unsigned char text[] = "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80 \xC0\xAF \xED\xA0\x80 \xE2\x82 end";
    size_t n = strlen((const char *)text);
    printf("text bytes=%zu\n", n);
    size_t i = 0;
    int chars = 0, errors = 0;
    while (i < n) {
        uint32_t cp;
        int len = utf8_decode(text + i, &cp);
        if (!len) { printf("  invalid byte %02X at %zu\n", text[i], i); errors++; i++; continue; }
        if (cp >= 0x80) printf("  U+%04X at %zu (%d bytes)\n", cp, i, len);
        chars++;
        i += (size_t)len;
    }
    printf("chars=%d errors=%d\n", chars, errors);
    return 0;
}
