// abort_bounded.c with unsigned char inputs (256 values, enumerable).
#include <pthread.h>

extern unsigned char __VERIFIER_nondet_uchar(); // no prototype: an indirect call
extern void abort(void);
extern void __VERIFIER_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned int sum;

void *add(void *arg) {
	(void)arg;
	unsigned char v = __VERIFIER_nondet_uchar();
	if (!(v < 4))
		abort();
	pthread_mutex_lock(&m);
	sum += v;
	if (sum == 6)
		__VERIFIER_error();
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, add, 0);
	pthread_create(&b, 0, add, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
