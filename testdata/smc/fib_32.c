/* fib_32.c -- Wyvern's version of the Fibonacci benchmark of the LODIN /
 * Plasma-Lab SMC paper (seed 003, Listing 1.2 and Section 5.2, "fib_n").
 *
 * Program: i = j = 1; thread t1 executes `i += j` NUM times, thread t2
 * executes `j += i` NUM times, both unsynchronised. main joins both and, if
 * i or j equals the 32th Fibonacci number F(32) = 2178309 (F(1) = F(2) = 1), calls
 * VERIFIER_error(). As in the paper's parametrisation (Listing 1.2 computes
 * the 32nd number with NUM 16), fib_n runs NUM = n/2 iterations per thread,
 * i.e. n - 2 ... n updates in total; only some interleavings of the loads and
 * stores of i and j end with i or j equal to F(n).
 *
 * Property (LODIN proposition [0.VERIFIER_error]: process 0, main, is about to
 * call VERIFIER_error):
 *     Pr[<=5000](<> [0.VERIFIER_error])
 * LODIN (Table 1/2): fib_4 [0.14, 0.15], fib_8 [0.04, 0.05], fib_16 1.5e-3,
 * fib_32 4.0e-6. Our measurement: see EXPECTED.md.
 *
 * With -DWYVERN_MEASURE, VERIFIER_error() calls the undefined reach_error(),
 * so a satisfying run ends in the error state ReachError (wyvern run --json).
 */
#ifndef NUM
#define NUM 16
#endif
#define EXPECTED 2178309
#include "fib.h"
