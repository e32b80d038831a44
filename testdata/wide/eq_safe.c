// A producer thread hands a 32-bit input below 2e9 to the main thread
// through a global array (written by a helper function through a pointer);
// the error needs 2123456789, which the bound excludes: safe. Explicit search enumerates the input's
// classes (explicit/classes.go): [0, 2e9), [2e9, 2123456789),
// {2123456789} and (2123456789, 2^32).
#include <pthread.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);
unsigned int slot[2];
pthread_mutex_t m;

void put(unsigned int *a, int i, unsigned int v) { a[i] = v; }

void *producer(void *arg) {
	unsigned int x = __VERIFIER_nondet_uint();
	if (x >= 2000000000u)
		return 0;
	pthread_mutex_lock(&m);
	put(slot, 1, x);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, producer, 0);
	pthread_mutex_lock(&m);
	unsigned int y = slot[1];
	pthread_mutex_unlock(&m);
	if (y == 2123456789u)
		reach_error();
	pthread_join(t, 0);
	return 0;
}
