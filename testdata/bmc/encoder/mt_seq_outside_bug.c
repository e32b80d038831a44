// t1 writes shared memory after its critical section: it does not run
// whole, and t2 sees x == 1 with shared still 0. Running the threads whole
// in each order would miss it: symbolic/sequential.go must refuse the
// program (an access outside the critical section).
#include <pthread.h>
#include <assert.h>

int x, shared;
pthread_mutex_t m;

void *t1(void *arg) {
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	shared = 1;
	return 0;
}

void *t2(void *arg) {
	pthread_mutex_lock(&m);
	if (x == 1)
		assert(shared == 1);
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
