/* wyvern.h: modelling primitives of the Wyvern platform.
 *
 * Wyvern runs programs under a probabilistic semantics: a seeded scheduler
 * picks the next process uniformly among the enabled ones, and the functions
 * below draw from the same seeded, replayable random source. Probabilities are
 * exact (no floating point), so analytic models can be written in C.
 */
#ifndef WYVERN_H
#define WYVERN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 1 with probability num/den and 0 otherwise (0 <= num <= den, den > 0). */
int wyvern_coin(unsigned int num, unsigned int den);

/* Returns an integer drawn uniformly from [lo, hi] (lo <= hi). */
int wyvern_uniform(int lo, int hi);

/* SV-COMP conventions, implemented by the platform. */
int __VERIFIER_nondet_int(void);
unsigned int __VERIFIER_nondet_uint(void);
char __VERIFIER_nondet_char(void);
_Bool __VERIFIER_nondet_bool(void);
long __VERIFIER_nondet_long(void);
void __VERIFIER_assume(int cond);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

#ifdef __cplusplus
}
#endif
#endif
