// Two threads each draw a signed 32-bit input that only a switch and a
// signed comparison read; the error needs one input at -100000 and the
// other at case 7, in either order of the threads.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int low, seven;

void *a(void *arg) {
	int v = __VERIFIER_nondet_int();
	if (v < -99999 && v > -100001)
		low = 1;
	return 0;
}

void *b(void *arg) {
	switch (__VERIFIER_nondet_int()) {
	case 3:
		break;
	case 7:
		seven = 1;
		break;
	default:
		break;
	}
	return 0;
}

int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, 0, a, 0);
	pthread_create(&t2, 0, b, 0);
	pthread_join(t1, 0);
	pthread_join(t2, 0);
	if (low && seven)
		reach_error();
	return 0;
}
