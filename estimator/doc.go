// Package estimator holds Wyvern's statistics: exact Clopper–Pearson
// intervals for proportions, the Okamoto (Chernoff–Hoeffding) sample size,
// sequential proportion estimation with stopping rules that keep (or, by
// name, LODIN's rule that does not keep) nominal coverage, Wald's sequential
// probability ratio test with an indifference region, and mean estimation
// with Student-t intervals.
//
// Every estimator is fed outcomes strictly in trace-index order (the
// coordinator buffers early arrivals), so a sequential rule sees the same
// sequence, and stops at the same run, whatever the number of workers.
//
// Estimators are not safe for concurrent use; the coordinator owns one per
// experiment and feeds it from a single goroutine.
package estimator
