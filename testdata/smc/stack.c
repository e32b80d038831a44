/* stack.c -- Wyvern's version of the lock-free stack benchmark of the LODIN / Plasma-Lab SMC
 * paper (seed 003, Section 5.2 and Listing 1.9).
 *
 * Program: a Treiber-style lock-free stack of integers over a fixed pool of CAPACITY
 * elements. An element is allocated by scanning the slotFree[] flags for a free slot and
 * claiming it with compare-and-swap; push links the element in with a CAS on head; pop
 * unlinks the head with a CAS, reads its value, releases the slot and resets the value to
 * the "empty" marker 100. main pushes 10, then starts thread1 (process 1: pop, then push 5)
 * and thread2 (process 2: push 20), joins both and walks the stack.
 *
 * The bug: pop releases the slot (slotFree[index] = 1) BEFORE it resets the element's value
 * (elem->i = 100). If thread1 pops 10 and, between those two stores, thread2 claims the same
 * slot and stores 20 into it, thread1's late reset overwrites the 20 with 100. A correct
 * stack ends as (20,5), (5,10) or (5,20) (top first); with the bug it can end as (5,100).
 * main calls VERIFIER_Done() when it sees an element holding 100 on the final stack. The
 * window is a handful of instructions, so the property is very rare.
 *
 * Property (LODIN proposition [0.VERIFIER_Done]: process 0, main, is about to call
 * VERIFIER_Done):
 *     Pr[<=5000](<> [0.VERIFIER_Done])
 * LODIN (Table 1): 299 runs, 0 satisfying, CI [0.00, 0.01]; Plasma-Lab importance
 * splitting (Table 2, 13 levels): 3.86e-15.
 *
 * The CASes are __sync_bool_compare_and_swap, i.e. LLVM cmpxchg instructions (one step).
 * With -DWYVERN_MEASURE, VERIFIER_Done() calls the undefined reach_error(), so a satisfying
 * run ends in the error state ReachError (wyvern run --json).
 */
#include <pthread.h>
#include <stdio.h>

#define CAPACITY 20
#define EMPTY 100

#ifdef WYVERN_MEASURE
void reach_error(void);
#endif

__attribute__((noinline)) void VERIFIER_Done(void) {
#ifdef WYVERN_MEASURE
  reach_error();
#endif
}

struct Element {
  int i;
  struct Element *next;
  int index;
};

struct Element *head;
struct Element elemsBuf[CAPACITY];
int slotFree[CAPACITY];

void init(void) {
  head = 0;
  for (int k = 0; k < CAPACITY; k++) {
    elemsBuf[k].i = EMPTY;
    elemsBuf[k].next = 0;
    elemsBuf[k].index = k;
    slotFree[k] = 1;
  }
}

struct Element *getFree(void) {
  while (1) {
    int selected = -1;
    for (int k = 0; k < CAPACITY; k++) {
      if (slotFree[k]) {
        selected = k;
        break;
      }
    }
    if (selected >= 0) {
      if (__sync_bool_compare_and_swap(&slotFree[selected], 1, 0))
        return &elemsBuf[selected];
    }
  }
}

void push(int i) {
  struct Element *elem = getFree();
  struct Element *hh;
  elem->i = i;
  do {
    hh = head;
    elem->next = hh;
  } while (!__sync_bool_compare_and_swap(&head, hh, elem));
  printf("Pushed %i-%i\n", elem->i, elem->index);
}

int pop(void) {
  struct Element *elem = 0;
  do {
    elem = head;
    if (!elem)
      return -1;
  } while (!__sync_bool_compare_and_swap(&head, elem, elem->next));
  int i = elem->i;
  slotFree[elem->index] = 1; /* BUG: the slot is released ... */
  elem->i = EMPTY;           /* ... before the element is reset */
  return i;
}

void *thread1(void *n) {
  pop();
  push(5);
  return 0;
}

void *thread2(void *n) {
  push(20);
  return 0;
}

int main(void) {
  init();
  pthread_t t1, t2;
  push(10);
  pthread_create(&t1, 0, thread1, 0);
  pthread_create(&t2, 0, thread2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  int bad = 0;
  struct Element *h = head;
  while (h) {
    printf("%i(%i) ", h->i, h->index);
    if (h->i == EMPTY)
      bad = 1;
    h = h->next;
  }
  printf("\n");
  if (bad)
    VERIFIER_Done();
  return 0;
}
