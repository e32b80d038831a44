// Two threads add inputs bounded to [0, 4) by `if (!(v < 4)) abort();` to a
// shared sum under a mutex; the error needs both to add 3. Explicit search
// enumerates the four values each bound admits and one it rejects
// instead of 2^32 (issue #30); abort_bounded_char.c is the same program
// with unsigned char inputs, whose 256 values the search can enumerate.
#include <pthread.h>

extern unsigned int __VERIFIER_nondet_uint(); // no prototype: an indirect call, as in SV-COMP
extern void abort(void);
extern void __VERIFIER_error(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned int sum;

void *add(void *arg) {
	(void)arg;
	unsigned int v = __VERIFIER_nondet_uint();
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
