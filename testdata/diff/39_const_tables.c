/* Tests const lookup tables: byte tables, string tables, 2D const tables, table-driven decoding. */
#include <stdio.h>
#include <stdint.h>

static const uint8_t popcnt4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
static const char hexdigits[] = "0123456789abcdef";
static const char *const month_names[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                             "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
static const int month_days[2][12] = {
    {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
    {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31},
};
static const int16_t sine_q15[17] = {0, 3212, 6393, 9512, 12539, 15446, 18204, 20787, 23170,
                                     25329, 27245, 28898, 30273, 31356, 32137, 32609, 32767};
static const struct { char sym; int val; } roman[] = {
    {'M', 1000}, {'D', 500}, {'C', 100}, {'L', 50}, {'X', 10}, {'V', 5}, {'I', 1},
};
static const char *const roman_pieces[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
static const int roman_vals[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int roman_value(char c) {
    for (unsigned i = 0; i < sizeof roman / sizeof roman[0]; i++)
        if (roman[i].sym == c) return roman[i].val;
    return 0;
}

static void to_roman(int v, char *out) {
    int pos = 0;
    for (int i = 0; i < 13; i++)
        while (v >= roman_vals[i]) {
            for (const char *p = roman_pieces[i]; *p; p++) out[pos++] = *p;
            v -= roman_vals[i];
        }
    out[pos] = '\0';
}

static int from_roman(const char *s) {
    int total = 0;
    for (int i = 0; s[i]; i++) {
        int v = roman_value(s[i]), nx = s[i + 1] ? roman_value(s[i + 1]) : 0;
        total += v < nx ? -v : v;
    }
    return total;
}

static int sine_deg(int deg) { /* quarter-wave table, 0..360 in 5.625 degree steps approx */
    int idx = (deg % 360) * 64 / 360;
    int q = idx / 16, r = idx % 16;
    switch (q) {
    case 0: return sine_q15[r];
    case 1: return sine_q15[16 - r];
    case 2: return -sine_q15[r];
    default: return -sine_q15[16 - r];
    }
}

int main(void) {
    uint32_t words[] = {0u, 0xffu, 0x12345678u, 0xffffffffu, 0x80808080u};
    for (int i = 0; i < 5; i++) {
        int c = 0;
        for (int s = 0; s < 32; s += 4) c += popcnt4[(words[i] >> s) & 15u];
        char hex[9];
        for (int k = 0; k < 8; k++) hex[k] = hexdigits[(words[i] >> (28 - 4 * k)) & 15u];
        hex[8] = '\0';
        printf("%s popcount=%d\n", hex, c);
    }
    int years[] = {1900, 2000, 2023, 2024};
    for (int y = 0; y < 4; y++) {
        int total = 0;
        for (int m = 0; m < 12; m++) total += month_days[is_leap(years[y])][m];
        printf("%d leap=%d days=%d feb=%d\n", years[y], is_leap(years[y]), total, month_days[is_leap(years[y])][1]);
    }
    for (int m = 0; m < 12; m += 3) printf("%s has %d days\n", month_names[m], month_days[0][m]);
    int tests[] = {1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999};
    for (int i = 0; i < 10; i++) {
        char buf[32];
        to_roman(tests[i], buf);
        printf("%d -> %s -> %d\n", tests[i], buf, from_roman(buf));
    }
    for (int d = 0; d < 360; d += 45) printf("sin(%3d) ~ %6d/32767\n", d, sine_deg(d));
    const unsigned char msg[] = "Wyvern!";
    char out[16];
    int op = 0;
    for (int i = 0; i < 6; i += 3) {
        uint32_t v = ((uint32_t)msg[i] << 16) | ((uint32_t)msg[i + 1] << 8) | msg[i + 2];
        out[op++] = b64[(v >> 18) & 63u];
        out[op++] = b64[(v >> 12) & 63u];
        out[op++] = b64[(v >> 6) & 63u];
        out[op++] = b64[v & 63u];
    }
    out[op] = '\0';
    printf("base64(\"Wyvern\") = %s\n", out);
    return 0;
}
