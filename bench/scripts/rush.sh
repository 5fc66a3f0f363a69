#!/bin/sh
# rush.sh measures what rush hours (travel.profile) cost the search and
# what they change in a generated day, and writes bench/results/rush.md.
# Usage: sh bench/scripts/rush.sh   (from anywhere inside the repository)
# It runs routeplan's BenchmarkSolve200, BenchmarkSolve200Rules and
# BenchmarkSolve200RulesRush (the rules problem under a weekday profile:
# 06:30-09:00 at 0.6, 15:30-19:00 at 0.65), then the generated 1,000-store
# day at 60 s without and with that profile (haulbench dcday -rush).
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/rush.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/haulbench" ./bench/cmd/haulbench
bench="go test -run '^\$' -bench 'BenchmarkSolve200\$|BenchmarkSolve200Rules\$|BenchmarkSolve200RulesRush\$' -benchtime 10x -count 5 ./routeplan"
load_bench=$(cut -d" " -f1-3 /proc/loadavg)
raw=$(nice sh -c "$bench")
day() {
	cut -d" " -f1-3 /proc/loadavg >"$tmp/$1.load"
	nice /usr/bin/time -f 'time: %e s elapsed, maximum RSS %M KB, exit %x' -o "$tmp/$1.time" \
		"$tmp/haulbench" dcday -stores 1000 -time 60s -seed 1 $2 >"$tmp/$1.csv" 2>"$tmp/$1.err"
}
day plain ""
day rush -rush
{
	echo "## rush hours: the cost of a travel profile (routeplan and haulbench dcday -rush)"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), shared with other work"
	echo "- $(go version); date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
	echo "- command: \`sh bench/scripts/rush.sh\`, which runs \`$bench\` (load average before: $load_bench),"
	echo "  then \`haulbench dcday -stores 1000 -time 60s -seed 1\` (load average before: $(cat "$tmp/plain.load")) and the same with \`-rush\` (load average before: $(cat "$tmp/rush.load"))"
	echo
	echo "BenchmarkSolve200RulesRush is BenchmarkSolve200Rules's problem with a weekday profile (06:30–09:00 at 0.6,"
	echo "15:30–19:00 at 0.65 of free-flow speed): every leg of the simulation is timed through it, the bounds keep"
	echo "free-flow legs. Target of the travel issue: the rules ratio with a profile within 1.5 × the ratio without."
	echo
	echo "| benchmark | ms/op (5 runs) | mean ms/op |"
	echo "|---|---|---:|"
	echo "$raw" | awk '/^BenchmarkSolve200/ { n = $1; sub(/-[0-9]+$/, "", n); v[n] = v[n] (v[n] == "" ? "" : ", ") sprintf("%.1f", $3 / 1e6); s[n] += $3 / 1e6; c[n]++ }
		END {
			split("BenchmarkSolve200 BenchmarkSolve200Rules BenchmarkSolve200RulesRush", names, " ")
			for (i = 1; i <= 3; i++) { k = names[i]; printf "| %s | %s | %.1f |\n", k, v[k], s[k] / c[k] }
			p = s["BenchmarkSolve200"] / c["BenchmarkSolve200"]; r = s["BenchmarkSolve200Rules"] / c["BenchmarkSolve200Rules"]; q = s["BenchmarkSolve200RulesRush"] / c["BenchmarkSolve200RulesRush"]
			printf "\nRules / plain: %.2f×; rules with the profile / plain: %.2f×; with / without the profile: **%.2f×** (target ≤ 1.5×).\n", r / p, q / p, q / r
		}'
	echo
	echo "The generated 1,000-store day (its stores' clock, Central time), 60 s, without and with the profile:"
	echo
	echo '```'
	sed -n 1p "$tmp/plain.csv"
	sed -n '2,$p' "$tmp/plain.csv"
	sed -n '2,$p' "$tmp/rush.csv"
	echo
	cat "$tmp/plain.err" "$tmp/plain.time" "$tmp/rush.err" "$tmp/rush.time"
	echo '```'
} >"$out"
echo "wrote $out"
