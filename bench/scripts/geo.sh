#!/bin/sh
# geo.sh runs the geo matrix benchmarks and writes bench/results/geo.md.
# Usage: sh bench/scripts/geo.sh   (from anywhere inside the repository)
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/geo.md
cmd="go test -run '^\$' -bench '^BenchmarkMatrix\$' -benchtime 5x -count 1 ./geo"
load=$(cut -d" " -f1-3 /proc/loadavg)
raw=$(nice sh -c "$cmd")
{
	echo "## geo: travel matrix (TravelModel.Matrix)"
	echo
	echo "Haversine road distance and duration for every pair of n points scattered over"
	echo "the continental US (upper triangle computed, lower mirrored), GOMAXPROCS workers."
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "- $(go version)"
	echo "- time limit: none (fixed 5 iterations per size); load average before the run: $load"
	echo "- command: \`$cmd\`"
	echo
	echo "| benchmark | ns/op | ns/pair | B/op | allocs/op |"
	echo "|---|---:|---:|---:|---:|"
	echo "$raw" | awk '/^BenchmarkMatrix/ {
		row = "| " $1 " |"
		for (i = 3; i < NF; i += 2) vals[$(i+1)] = $i
		print row " " vals["ns/op"] " | " vals["ns/pair"] " | " vals["B/op"] " | " vals["allocs/op"] " |"
	}'
} >"$out"
echo "wrote $out"
