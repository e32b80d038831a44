// t1 divides by zero after its critical section (an error the query
// E<> Error(AssertFail) does not name). In the vm t2's section runs between
// t1's unlock and the division and fails its assertion; running t1 whole in
// the order t1, t2 ends the run at the division, before t2: the orders must
// reach no error of any kind for a proof (symbolic/sequential.go).
#include <pthread.h>
#include <assert.h>
int x, out;
pthread_mutex_t m;
void *t1(void *arg) {
	volatile int z = 0;
	int r;
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	r = 1 / z;
	z = r;
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
