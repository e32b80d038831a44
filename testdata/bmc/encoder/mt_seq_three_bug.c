// Three one-section threads (symbolic/sequential.go's premises hold): the
// assertion fails only when t3's section runs between t1's and t2's, an
// order the sequentialized check must try and whose violation it must not
// hide (it reports no proof; the partial-order check finds it).
#include <pthread.h>
#include <assert.h>

int amount, done;
pthread_mutex_t m;

void *t1(void *arg) {
	pthread_mutex_lock(&m);
	amount = 3;
	done = 1;
	pthread_mutex_unlock(&m);
	return 0;
}

void *t2(void *arg) {
	pthread_mutex_lock(&m);
	if (done)
		assert(amount == 3);
	pthread_mutex_unlock(&m);
	return 0;
}

void *t3(void *arg) {
	pthread_mutex_lock(&m);
	if (done)
		amount = 0;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t a, b, c;
	pthread_create(&a, 0, t1, 0);
	pthread_create(&b, 0, t2, 0);
	pthread_create(&c, 0, t3, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	pthread_join(c, 0);
	return 0;
}
