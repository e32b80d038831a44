// As mt_seq_assume_bug.c with abort(), under a violation that leaves
// Abort out (SV-COMP's unreach-call: reach_error calls and every error
// but abort's): t1's abort() after its section ends the run, so the
// sequentialized proof must refuse (symbolic/sequential.go, runEnds).
#include <pthread.h>
#include <stdlib.h>

void reach_error(void) {}

int x;
pthread_mutex_t m;

void *t1(void *arg) {
	pthread_mutex_lock(&m);
	x = 1;
	pthread_mutex_unlock(&m);
	abort();
	return 0;
}

void *t2(void *arg) {
	pthread_mutex_lock(&m);
	if (x == 1)
		reach_error();
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
