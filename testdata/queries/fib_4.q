// Five queries of five kinds on testdata/smc/fib_4.c (i and j are the
// globals both threads update), answered in turn by
//   wyvern check testdata/smc/fib_4.c -q testdata/queries/fib_4.q

# the probability of the bug, and a test of it
Pr[<=5000](<> [0.VERIFIER_error]) {Epsilon=0.05}
Pr[<=5000](<> [0.VERIFIER_error]) >= 0.5   // fails: the probability is about 0.13

Estimate[<=5000,200]{max i + j}
EnumStatesSMC <=5000 100

E<> [0.VERIFIER_error]
