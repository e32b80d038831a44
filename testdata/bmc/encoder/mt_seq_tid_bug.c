// main reads its pthread_t after the join: pthread_create stored the
// thread's id (1) there, so the assertion fails. The sequentialized
// orders replace the create by a call and leave the variable 0: they must
// refuse a pthread_t read after the joins (symbolic/sequential.go; the
// first version proved this program).
#include <pthread.h>
#include <assert.h>

int x;
pthread_mutex_t m;

void *t1(void *arg) {
	pthread_mutex_lock(&m);
	x++;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t a;
	pthread_create(&a, 0, t1, 0);
	pthread_join(a, 0);
	assert(a == 0);
	return 0;
}
