/* petersons.c -- Wyvern's version of the Peterson benchmark of the LODIN / Plasma-Lab SMC
 * paper (seed 003, Section 5.2 and Listing 1.3), correct version.
 *
 * Program: two threads, petersons1 (process 1) and petersons2 (process 2), each try once
 * to enter a critical section, abstracted as a call to the (defined, noinline, empty)
 * function crit(). They communicate through a shared array flags[2] and a variable turn,
 * reached through an Options struct of pointers. main (process 0) joins both.
 *
 * Property: both processes are about to call crit at the same time (LODIN's
 * propositions [1.crit], [2.crit]):
 *     Pr[<=5000](<> ([1.crit] && [2.crit]))
 * LODIN (Table 1): 0 satisfying runs of 299, CI [0.00, 0.01]; the true probability is 0.
 *
 * Measurement build (-DWYVERN_MEASURE): crit() keeps a shared count of processes inside
 * it and calls the undefined reach_error() (error state ReachError) when the count
 * reaches 2. This is an approximation of the query: crit's body then has a few extra
 * instructions, which widens the window in which the two calls overlap.
 */
#define OWN_FLAG 1
#include "peterson.h"
