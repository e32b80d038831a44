// t1 ends the whole run by a failing assumption after its critical
// section; before that, t2's section may see x == 1 and fail. Every order
// of the threads run whole runs t1's assumption before t2 or has t2 see
// x == 0: the sequentialized proof must refuse a thread that may end the
// run without a violation (symbolic/sequential.go, runEnds).
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int x;
pthread_mutex_t m;

void *t1(void *arg) {
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	__VERIFIER_assume(0);
	return 0;
}

void *t2(void *arg) {
	pthread_mutex_lock(&m);
	assert(x != 1);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
