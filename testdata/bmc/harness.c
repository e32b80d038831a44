/* harness.c: the native side of harness.h (see there and README.md). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void reach_error(void) {
  printf("REACHED\n");
  fflush(stdout);
  _exit(42);
}

void __VERIFIER_error(void) { reach_error(); }

static pthread_mutex_t wv_atomic = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
void __VERIFIER_atomic_begin(void) { pthread_mutex_lock(&wv_atomic); }
void __VERIFIER_atomic_end(void) { pthread_mutex_unlock(&wv_atomic); }

#ifdef WITNESS
extern long long wv_inputs[] __attribute__((weak));
extern int wv_ninputs __attribute__((weak));
static int wv_next;

static long long wv_pick(long long lo, long long hi) {
  if (&wv_ninputs == NULL || wv_next >= wv_ninputs) {
    printf("WITNESS EXHAUSTED at input %d\n", wv_next);
    fflush(stdout);
    _exit(4);
  }
  long long v = wv_inputs[wv_next++];
  if (v < lo || v > hi) {
    printf("WITNESS input %d = %lld outside [%lld, %lld]\n", wv_next - 1, v, lo, hi);
    fflush(stdout);
    _exit(4);
  }
  return v;
}

void __VERIFIER_assume(int c) {
  if (!c) {
    printf("WITNESS FAILS AN ASSUMPTION\n");
    fflush(stdout);
    _exit(3);
  }
}

static atomic_int wv_turn;
void wv_turn_begin(int n) {
  while (atomic_load(&wv_turn) != n)
    sched_yield();
}
void wv_turn_end(void) { atomic_fetch_add(&wv_turn, 1); }

#elif defined(EXHAUSTIVE)
extern long long wv_dom_lo __attribute__((weak)), wv_dom_hi __attribute__((weak));
extern int wv_dom_set __attribute__((weak));
int wv_main(void);

#define MAXDEPTH 256
static long long wv_choice[MAXDEPTH], wv_hi[MAXDEPTH];
static int wv_depth, wv_len, wv_sampled;
static jmp_buf wv_jb;
static long long wv_assumes_failed;

/* Index of the next choice in [0, n). */
static long long wv_index(long long n) {
  if (wv_depth >= MAXDEPTH) {
    fprintf(stderr, "EXHAUSTIVE: more than %d nondet calls in one run\n", MAXDEPTH);
    abort();
  }
  if (wv_depth < wv_len)
    return wv_choice[wv_depth++];
  wv_choice[wv_depth] = 0;
  wv_hi[wv_depth] = n - 1;
  wv_len = ++wv_depth;
  return 0;
}

static long long wv_pick(long long lo, long long hi) { return lo + wv_index(hi - lo + 1); }

static const long long wv_edges[] = {0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 100, 255, 256, 1000,
                                     65535, 65536, 0x7fffffff, -1, -2, -100, -0x7fffffff,
                                     -0x7fffffff - 1, 0x80000000LL, 0xfffffffeLL, 0xffffffffLL};

static long long wv_wide(void) {
  if (&wv_dom_set != NULL && wv_dom_set)
    return wv_pick(wv_dom_lo, wv_dom_hi);
  wv_sampled = 1;
  return wv_edges[wv_index(sizeof wv_edges / sizeof wv_edges[0])];
}

void __VERIFIER_assume(int c) {
  if (!c) {
    wv_assumes_failed++;
    longjmp(wv_jb, 1);
  }
}

void wv_unwind_exceeded(int line, int k) {
  printf("UNWIND EXCEEDED: the loop at line %d ran more than %d times\n", line, k);
  fflush(stdout);
  _exit(5);
}

int main(void) {
  long long runs = 0;
  for (;;) {
    wv_depth = 0;
    if (!setjmp(wv_jb))
      wv_main();
    runs++;
    wv_len = wv_depth;
    while (wv_len > 0 && wv_choice[wv_len - 1] == wv_hi[wv_len - 1])
      wv_len--;
    if (wv_len == 0)
      break;
    wv_choice[wv_len - 1]++;
  }
  printf("%s %lld runs (%lld failed an assumption)\n", wv_sampled ? "sampled" : "exhaustive", runs,
         wv_assumes_failed);
  return 0;
}
#else
static long long wv_pick(long long lo, long long hi) { return lo + rand() % (hi - lo + 1); }
static long long wv_wide(void) { return rand(); }
void __VERIFIER_assume(int c) {
  if (!c)
    exit(0);
}
#endif

#ifdef WITNESS
#define WIDE(lo, hi) wv_pick(lo, hi)
#else
#define WIDE(lo, hi) wv_wide()
#endif

_Bool __VERIFIER_nondet_bool(void) { return wv_pick(0, 1); }
char __VERIFIER_nondet_char(void) { return (char)wv_pick(-128, 127); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)wv_pick(0, 255); }
int __VERIFIER_nondet_int(void) { return (int)WIDE(-0x7fffffffLL - 1, 0x7fffffffLL); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned)WIDE(-0x7fffffffLL - 1, 0xffffffffLL); }
long __VERIFIER_nondet_long(void) { return (long)WIDE(-0x7fffffffffffffffLL - 1, 0x7fffffffffffffffLL); }
int wyvern_uniform(int lo, int hi) { return (int)wv_pick(lo, hi); }
int wyvern_coin(unsigned num, unsigned den) {
  if (num == 0)
    return 0;
  if (num >= den)
    return 1;
  return (int)wv_pick(0, 1);
}
