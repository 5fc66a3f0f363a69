#!/bin/sh
# binpack.sh runs haulbench binpack on the three benchmark groups of issue 4
# (Falkenauer U+T with Scholl 1-3; Hard28; vector packing d = 3) and writes
# bench/results/binpack.md. Usage: bench/scripts/binpack.sh [TIME], default 1s
# per instance. The data is looked up in ../shared/data (or $HAULPLAN_DATA).
set -eu
cd "$(dirname "$0")/../.."
DATA=${HAULPLAN_DATA:-../shared/data}
LIMIT=${1:-1s}
OUT=bench/results/binpack.md
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
BP=$DATA/binpacking
VP=$DATA/vectorpacking
[ -d "$BP" ] && [ -d "$VP" ] || { echo "binpack.sh: benchmark data not found under $DATA" >&2; exit 1; }

go build -o "$TMP/haulbench" ./bench/cmd/haulbench

# run NAME REF FILE... : one haulbench call, CSV and summary kept in $TMP.
run() {
	name=$1 ref=$2
	shift 2
	nice "$TMP/haulbench" binpack -time "$LIMIT" -ref "$ref" "$@" >"$TMP/$name.csv" 2>"$TMP/$name.err"
}

run classic "$BP/optima.csv" "$BP"/falkenauer_u/*.txt "$BP"/falkenauer_t/*.txt "$BP"/scholl_1/*.txt "$BP"/scholl_2/*.txt "$BP"/scholl_3/*.txt
run hard28 "$BP/optima.csv" "$BP"/hard28/*.txt
run vector "$VP/optima.csv" $(find "$VP" -name '*.vbp' | sort)

# table FILE: the per-set summary lines of haulbench as Markdown rows.
table() {
	echo "| set | instances | at optimum (of known) | excess bins | proven optimal | bins / sum of best_known | mean s | max s |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F', ' '/ instances, at optimum / {
		split($1, a, ": "); n = a[2]; sub(/ instances/, "", n)
		opt = $2; sub(/at optimum /, "", opt)
		ex = $3; sub(/excess bins /, "", ex)
		pr = $4; sub(/proven optimal /, "", pr)
		mean = $5; sub(/mean /, "", mean); sub(/s$/, "", mean)
		mx = $6; sub(/max /, "", mx); sub(/s$/, "", mx)
		bk = "—"
		if (NF >= 7) { b = $7; sub(/bins /, "", b); split(b, q, " "); bk = q[1] " / " q[4] }
		printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", a[1], n, opt, ex, pr, bk, mean, mx
	}' "$1"
}

{
	echo "## Bin packing (haulbench binpack)"
	echo
	echo "Command: \`bench/scripts/binpack.sh $LIMIT\`, which runs"
	echo "\`go run ./bench/cmd/haulbench binpack -time $LIMIT -ref optima.csv FILE...\` once per group, one instance at a time (1 worker)."
	echo
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- loadplan/binpack bench ':!bench/results' || echo ' + local changes')"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(go version | cut -d' ' -f3-)"
	echo "- Time limit: $LIMIT per instance; seconds are the wall time of Solve (reading the file excluded)."
	echo "- Load average when the run ended: $(cut -d' ' -f1-3 /proc/loadavg). Other work on the machine slows the solver, so with a load above 1 the times are upper estimates; results that depend on the time limit (Hard28, the last few Falkenauer T and Scholl 2 instances) vary by a few instances from run to run."
	echo "- \"at optimum\" counts instances solved with the known optimum (\`optimum\` column of optima.csv); \"proven optimal\" counts those where the packing met the solver's own lower bound (L1, L2, Gilmore–Gomory LP)."
	echo
	echo "### Falkenauer U + T, Scholl 1, 2, 3 (target: >= 99 % at the proven optimum, mean <= 50 ms)"
	echo
	table "$TMP/classic.err"
	echo
	echo "### Hard28 (target: >= 14 of 28 optimal)"
	echo
	table "$TMP/hard28.err"
	echo
	echo "### Vector packing, d = 3 (target: total bins <= sum of best_known)"
	echo
	table "$TMP/vector.err"
	clamped=$(grep -c 'negative sizes read as 0' "$TMP/vector.err" || true)
	if [ "$clamped" -gt 0 ]; then
		echo
		echo "$clamped Caprara triplet files hold negative sizes (-1, -2); haulbench reads them as 0, which only makes those instances harder (a packing valid with 0 is valid with the negative size)."
	fi
} >"$OUT"
echo "wrote $OUT" >&2
