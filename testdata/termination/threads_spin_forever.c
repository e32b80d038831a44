// termination: false
// A thread waits for a flag nobody sets, and main waits for the thread: the
// thread alone steps forever, and it is the only process enabled (main is
// blocked in the join), so the cycle is a fair run.
#include <pthread.h>

volatile int stop;

void *spin(void *arg) {
    (void)arg;
    while (!stop) {
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, spin, 0);
    pthread_join(t, 0);
    return 0;
}
