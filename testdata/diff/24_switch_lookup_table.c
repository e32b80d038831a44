/* Tests a large dense switch returning constants (clang -O1 turns it into a lookup table) and a jump-table switch. */
#include <stdio.h>

static int table_switch(int x) {
    switch (x) {
    case 0: return 17; case 1: return 4; case 2: return 99; case 3: return -3;
    case 4: return 250; case 5: return 8; case 6: return 1000; case 7: return 33;
    case 8: return -77; case 9: return 12; case 10: return 5; case 11: return 64;
    case 12: return 81; case 13: return 0; case 14: return 7; case 15: return 1;
    case 16: return 31; case 17: return -1; case 18: return 45; case 19: return 2;
    case 20: return 600; case 21: return 19; case 22: return 23; case 23: return 29;
    default: return -999;
    }
}

static const char *name_switch(unsigned x) {
    switch (x) {
    case 0: return "zero"; case 1: return "one"; case 2: return "two"; case 3: return "three";
    case 4: return "four"; case 5: return "five"; case 6: return "six"; case 7: return "seven";
    case 8: return "eight"; case 9: return "nine"; case 10: return "ten"; case 11: return "eleven";
    default: return "many";
    }
}

static long long offset_switch(int x) {
    switch (x) {
    case 100: return 1LL << 40; case 101: return 3; case 102: return 5000000000LL;
    case 103: return -7; case 104: return 11; case 105: return 13; case 106: return -(1LL << 50);
    case 107: return 19; case 108: return 23;
    default: return 0;
    }
}

static int jump_switch(int op, int a, int b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return b ? a / b : 0;
    case 4: return b ? a % b : 0;
    case 5: return a & b;
    case 6: return a | b;
    case 7: return a ^ b;
    case 8: printf("  (op 8 side effect)\n"); return a << (b & 7);
    case 9: return a >> (b & 7);
    default: return -1;
    }
}

static unsigned char small_switch(unsigned char c) {
    switch (c) {
    case 0: return 'a'; case 1: return 'e'; case 2: return 'i'; case 3: return 'o'; case 4: return 'u';
    case 5: return 'y';
    default: return '-';
    }
}

int main(void) {
    int sum = 0;
    for (int i = -2; i < 26; i++) {
        int v = table_switch(i);
        sum += v;
        printf("table(%d) = %d\n", i, v);
    }
    printf("sum = %d\n", sum);
    for (unsigned i = 0; i < 14; i += 1) printf("name(%u) = %s\n", i, name_switch(i));
    for (int i = 98; i < 111; i++) printf("offset(%d) = %lld\n", i, offset_switch(i));
    for (int op = 0; op < 11; op++) printf("jump op %d: %d\n", op, jump_switch(op, 100, 7));
    for (unsigned char c = 0; c < 8; c++) printf("%c", small_switch(c));
    printf("\n");
    return 0;
}
