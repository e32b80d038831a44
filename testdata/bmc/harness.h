/* harness.h: native validation harness of the BMC corpus (see README.md).
 * validate.sh compiles a program with `-include harness.h` and links it with
 * harness.c, in one of two modes:
 *   -DWITNESS     the program's own WITNESS_INPUTS(...) are returned, in order,
 *                 by the __VERIFIER_nondet_* / wyvern_* calls; W_BEGIN(n) and
 *                 W_END() force a thread schedule (segment n runs when every
 *                 segment < n has ended); reach_error() prints REACHED and
 *                 exits 42.
 *   -DEXHAUSTIVE  main is renamed and harness.c calls it once for every
 *                 sequence of nondet choices (depth-first, in one process; a
 *                 failed __VERIFIER_assume longjmps back); 8-bit and Boolean
 *                 inputs and wyvern_uniform/wyvern_coin take every value of
 *                 their domain, wider inputs the range EXHAUSTIVE_DOMAIN(lo,
 *                 hi) when the program declares one (a superset of what its
 *                 assumes admit), else a fixed list of edge values (the run is
 *                 then reported as "sampled", not "exhaustive").
 *                 UNWIND_DECL(v) / UNWIND_CHECK(v, k) abort when a loop body
 *                 runs more than k times, which checks the stated unwind.
 * Wyvern never sees this file: programs define these macros as empty when
 * BMC_HARNESS is not defined. */
#ifndef BMC_HARNESS
#define BMC_HARNESS 1

#ifdef WITNESS
#define WITNESS_INPUTS(...)                                                   \
  long long wv_inputs[] = {__VA_ARGS__};                                      \
  int wv_ninputs = sizeof wv_inputs / sizeof wv_inputs[0];
void wv_turn_begin(int n);
void wv_turn_end(void);
#define W_BEGIN(n) wv_turn_begin(n)
#define W_END() wv_turn_end()
#else
#define WITNESS_INPUTS(...)
#define W_BEGIN(n)
#define W_END()
#endif

#ifdef EXHAUSTIVE
#define EXHAUSTIVE_DOMAIN(lo, hi)                                             \
  long long wv_dom_lo = (lo), wv_dom_hi = (hi);                               \
  int wv_dom_set = 1;
void wv_unwind_exceeded(int line, int k);
#define UNWIND_DECL(v) int v = 0;
#define UNWIND_CHECK(v, k)                                                    \
  do {                                                                        \
    if (++(v) > (k))                                                          \
      wv_unwind_exceeded(__LINE__, (k));                                      \
  } while (0)
#else
#define EXHAUSTIVE_DOMAIN(lo, hi)
#define UNWIND_DECL(v)
#define UNWIND_CHECK(v, k) ((void)0)
#endif

#endif
