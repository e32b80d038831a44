/* Tests switch: dense and sparse cases, fallthrough, default placement, switch in loops with break/continue. */
#include <stdio.h>

static int sparse(int x) {
    switch (x) {
    case -1000: return 1;
    case -7: return 2;
    case 0: return 3;
    case 13: return 4;
    case 1024: return 5;
    case 65536: return 6;
    case 1000000: return 7;
    default: return 0;
    }
}

static int fall(int x) {
    int r = 0;
    switch (x) {
    case 0: r += 1; /* fallthrough */
    case 1: r += 10; /* fallthrough */
    case 2: r += 100; break;
    case 3: r += 1000; /* fallthrough */
    default: r += 5;
    case 4: r += 50000; break;
    }
    return r;
}

static const char *day(unsigned d) {
    switch (d % 7) {
    case 0: return "Sun";
    case 1: return "Mon";
    case 2: return "Tue";
    case 3: return "Wed";
    case 4: return "Thu";
    case 5: return "Fri";
    case 6: return "Sat";
    }
    return "???";
}

static int char_class(char c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
    case ' ': case '\t': case '\n': return 2;
    case '0' ... '9': return 3;
    case 'A' ... 'Z': return 4;
    default: return 0;
    }
}

int main(void) {
    int probes[] = {-1000, -999, -7, 0, 1, 13, 14, 1024, 65536, 65535, 1000000, 42};
    for (int i = 0; i < 12; i++) printf("sparse(%d) = %d\n", probes[i], sparse(probes[i]));
    for (int i = -1; i <= 6; i++) printf("fall(%d) = %d\n", i, fall(i));
    for (unsigned d = 0; d < 10; d++) printf("day %u = %s\n", d, day(d));
    const char *text = "Hello World 2024 in a\tloop\n";
    int counts[5] = {0};
    for (int i = 0; text[i]; i++) counts[char_class(text[i])]++;
    printf("classes: other=%d vowel=%d space=%d digit=%d upper=%d\n", counts[0], counts[1], counts[2], counts[3], counts[4]);
    int acc = 0;
    for (int i = 0; i < 30; i++) {
        switch (i % 5) {
        case 0: acc += i; continue;
        case 1: acc -= 1; break;
        case 2: if (i > 20) goto out; acc *= 2; break;
        case 3: acc ^= 0x55; break;
        default: break;
        }
        printf("i=%2d acc=%d\n", i, acc);
    }
out:
    printf("final acc=%d\n", acc);
    /* nested switch */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            switch (a) {
            case 0:
                switch (b) { case 0: printf("00 "); break; case 1: printf("01 "); break; default: printf("0x "); }
                break;
            case 1: printf("1%d ", b); break;
            default:
                switch (b) { case 2: printf("22\n"); break; default: printf("2? "); }
            }
        }
    long long big = 5000000000LL;
    switch (big) {
    case 5000000000LL: printf("64-bit case matched\n"); break;
    default: printf("64-bit no match\n");
    }
    return 0;
}
