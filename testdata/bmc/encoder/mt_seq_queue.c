// A one-section-a-thread queue (SV-COMP's queue_ok in small): each thread
// touches shared memory only inside one critical section of m, so BMC
// proves it by running the threads whole in each order (symbolic/
// sequential.go). Safe.
#include <pthread.h>
#include <assert.h>

extern _Bool __VERIFIER_nondet_bool(void);

#define SIZE 3

int element[SIZE];
int head, tail, amount;
int stored[SIZE];
_Bool enq = 1, deq;
pthread_mutex_t m;

static void enqueue(int x) {
	element[tail] = x;
	amount++;
	tail = tail == SIZE - 1 ? 0 : tail + 1;
}

static int dequeue(void) {
	int x = element[head];
	amount--;
	head = head == SIZE - 1 ? 0 : head + 1;
	return x;
}

void *t1(void *arg) {
	int i;
	pthread_mutex_lock(&m);
	if (enq) {
		for (i = 0; i < SIZE; i++) {
			int v = __VERIFIER_nondet_bool();
			enqueue(v);
			stored[i] = v;
		}
		enq = 0;
		deq = 1;
	}
	pthread_mutex_unlock(&m);
	return 0;
}

void *t2(void *arg) {
	int i;
	pthread_mutex_lock(&m);
	if (deq) {
		for (i = 0; i < SIZE; i++)
			assert(dequeue() == stored[i]);
		deq = 0;
		enq = 1;
	}
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
	assert(amount == 0 || amount == SIZE);
	return 0;
}
