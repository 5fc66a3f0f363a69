// Package binpack is haulplan's packing core: one-dimensional and vector
// (several dimensions, for example floor positions, weight and volume) bin
// packing with integer sizes.
//
// Solve packs the items of a Problem into as few bins as it can within a time
// limit and proves how good the packing is. It computes the lower bounds L1
// (continuous), L2 (Martello–Toth) and, in one dimension, the Gilmore–Gomory
// LP bound by column generation with knapsack pricing. It starts from
// first-fit decreasing, best-fit decreasing and (in one dimension) minimum
// bin slack packings, dives on the LP solution (fix the patterns the LP
// uses, solve the LP of the rest, repeat), and improves the best packing
// with a consistent neighbourhood search (after Buljubašić & Vasquez 2016)
// that works on a partial packing with one bin fewer than the best known and
// a pool of unpacked items. Every phase stops as soon as the packing meets
// the lower bound, so Result.Optimal is a proof, never a guess.
//
// The LP bound is computed from the dual values of the restricted master
// problem through Farley's bound: whatever the state of the simplex, the
// duals, made non-negative and divided by the exact knapsack optimum, form a
// feasible solution of the dual LP, so the bound stays valid even when the
// floating-point simplex is inexact or stops early.
//
// Nothing here reads files or keeps state between calls; the benchmark
// readers live in bench/binpack.
package binpack
