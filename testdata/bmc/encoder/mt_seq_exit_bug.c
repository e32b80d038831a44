// t1 exits after its critical section. In the vm t2's section can run
// between t1's unlock and that stop, and sees x == 1. Running t1 whole in
// the order t1, t2 stops the run before t2 runs: the orders would miss the
// violation. symbolic/sequential.go must refuse the program (a stop after
// the unlock).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>
extern void __VERIFIER_assume(int);

int x;
pthread_mutex_t m;

void *t1(void *arg) {
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	exit(0);
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
	pthread_mutex_init(&m, 0);
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
