// termination: true
// Two threads compute gcd(6, 4) by subtraction (SV-COMP's pthread-atomic/gcd-2):
// dec_a's loop spins without effect while a < b, and only dec_b can end it.
// Under fair scheduling every run ends; a cycle of dec_a alone starves dec_b,
// so it is no lasso (a run only an unfair scheduler takes).
#include <pthread.h>

unsigned a = 6, b = 4;

void __VERIFIER_atomic_dec_a(void) {
    if (a > b)
        a = a - b;
}

void __VERIFIER_atomic_dec_b(void) {
    if (b > a)
        b = b - a;
}

void *dec_a(void *arg) {
    (void)arg;
    while (a != b)
        __VERIFIER_atomic_dec_a();
    return 0;
}

void *dec_b(void *arg) {
    (void)arg;
    while (a != b)
        __VERIFIER_atomic_dec_b();
    return 0;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, 0, dec_a, 0);
    pthread_create(&t2, 0, dec_b, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    return a == 2 ? 0 : 1;
}
