// char_bug.c's safe twin: the error needs 201, which the writer never
// stores (its input is at most 200). TestInputClassesMatchFull compares the
// search over input classes with the search over all 256 values.
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
unsigned char box[2];
pthread_mutex_t m;

void *writer(void *arg) {
	unsigned char u = __VERIFIER_nondet_uchar();
	if (u > 200)
		return 0;
	pthread_mutex_lock(&m);
	box[1] = u;
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t a;
	pthread_create(&a, 0, writer, 0);
	pthread_mutex_lock(&m);
	unsigned char seen = box[1];
	pthread_mutex_unlock(&m);
	if (seen == 201)
		reach_error();
	pthread_join(a, 0);
	return 0;
}
