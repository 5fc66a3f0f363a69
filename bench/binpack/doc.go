// Package binpack reads the bin packing benchmark formats used by
// haulbench binpack — BPPLIB one-dimensional files and VPSolver .vbp vector
// files — and the reference tables shipped with the data (optima.csv,
// baselines.csv), and scores solver results against them.
package binpack
