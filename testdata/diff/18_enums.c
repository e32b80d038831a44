/* Tests enums: implicit/explicit values, negative enumerators, enums in switch and arrays. */
#include <stdio.h>

enum color { RED, GREEN, BLUE, COLOR_COUNT };
enum weird { W_NEG = -5, W_NEXT, W_ZERO = 0, W_BIG = 1000, W_AFTER, W_HEX = 0x7f };
enum state { IDLE = 1, RUNNING = 2, BLOCKED = 4, DONE = 8 };

static const char *color_names[COLOR_COUNT] = {"red", "green", "blue"};

static enum state transition(enum state s, int event) {
    switch (s) {
    case IDLE: return event ? RUNNING : IDLE;
    case RUNNING: return event == 1 ? BLOCKED : (event == 2 ? DONE : RUNNING);
    case BLOCKED: return event ? RUNNING : BLOCKED;
    case DONE: return DONE;
    }
    return IDLE;
}

static const char *state_name(enum state s) {
    switch (s) {
    case IDLE: return "IDLE";
    case RUNNING: return "RUNNING";
    case BLOCKED: return "BLOCKED";
    case DONE: return "DONE";
    }
    return "?";
}

int main(void) {
    for (enum color c = RED; c < COLOR_COUNT; c++)
        printf("color %d = %s\n", c, color_names[c]);
    printf("weird: %d %d %d %d %d %d\n", W_NEG, W_NEXT, W_ZERO, W_BIG, W_AFTER, W_HEX);
    enum weird w = W_NEXT;
    printf("W_NEXT < W_ZERO: %d\n", w < W_ZERO);
    int events[] = {0, 1, 0, 1, 3, 1, 1, 2, 0, 1};
    enum state s = IDLE;
    int mask = 0;
    for (int i = 0; i < 10; i++) {
        enum state n = transition(s, events[i]);
        mask |= n;
        printf("event %d: %s -> %s\n", events[i], state_name(s), state_name(n));
        s = n;
    }
    printf("visited mask = %d\n", mask);
    int counts[COLOR_COUNT] = {0};
    const char *seq = "rgbbrgggbrr";
    for (int i = 0; seq[i]; i++) {
        enum color c = seq[i] == 'r' ? RED : seq[i] == 'g' ? GREEN : BLUE;
        counts[c]++;
    }
    for (int c = 0; c < COLOR_COUNT; c++)
        printf("%s count %d\n", color_names[c], counts[c]);
    printf("sizeof(enum color)=%zu\n", sizeof(enum color));
    return (int)s;
}
