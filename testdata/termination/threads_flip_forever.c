// termination: false
// Two threads flip their own flag forever: a cycle in which both step is a
// fair run that never ends (cycles of one thread alone are passed over).
#include <pthread.h>

int x, y;

void *flip_x(void *arg) {
    (void)arg;
    while (1)
        x = 1 - x;
    return 0;
}

void *flip_y(void *arg) {
    (void)arg;
    while (1)
        y = 1 - y;
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, flip_x, 0);
    pthread_create(&t2, 0, flip_y, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return 0;
}
