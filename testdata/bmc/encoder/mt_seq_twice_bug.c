// t1 takes the mutex twice (a loop): t2 may run between its sections and
// see c == 1. Running t1 whole would miss it: symbolic/sequential.go must
// refuse the program (a lock on a cycle).
#include <pthread.h>
#include <assert.h>

int c;
pthread_mutex_t m;

void *t1(void *arg) {
	int i;
	for (i = 0; i < 2; i++) {
		pthread_mutex_lock(&m);
		c++;
		pthread_mutex_unlock(&m);
	}
	return 0;
}

void *t2(void *arg) {
	pthread_mutex_lock(&m);
	assert(c != 1);
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
