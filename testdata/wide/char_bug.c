// The unsigned char twin of the wide-input programs: a writer thread
// stores an input of at most 200 into a global array under a mutex, the
// main thread reads it back; the error needs 150. With 256 values the
// search can enumerate every value, so TestInputClassesMatchFull compares
// the search over input classes (MaxBranching below 256) with it.
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
	if (seen == 150)
		reach_error();
	pthread_join(a, 0);
	return 0;
}
