/* A bounded queue shared by threads (queue.c), and its users (main.c):
 * a program of two source files, linked into one by `wyvern`
 * (llvm-link-14) as by a native build:
 *   wyvern run testdata/multi/main.c testdata/multi/queue.c
 *   cc -pthread testdata/multi/main.c testdata/multi/queue.c */
#define QCAP 2

void q_push(int v);
int q_pop(void);

/* q_pushes counts the pushes without the queue's lock: two producers
 * race on it (E<> DataRace is reachable; the queue itself is safe). */
extern int q_pushes;
