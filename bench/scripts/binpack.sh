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

# table FILE: the summary lines of haulbench as Markdown rows.
table() {
	echo "| set | instances | at optimum (of known) | excess bins | proven optimal | bins / best_known | mean s | max s |"
	echo "|---|---|---|---|---|---|---|---|"
	sed -E 's/^([^:]+): ([0-9]+) instances, at optimum ([0-9]+\/[0-9]+), excess bins (-?[0-9]+), proven optimal ([0-9]+), mean ([0-9.]+)s, max ([0-9.]+)s(, bins ([0-9]+) vs best_known ([0-9]+) over ([0-9]+))?$/| \1 | \2 | \3 | \4 | \5 | \9 \/ \10 | \6 | \7 |/' "$1" | sed 's/|  \/  |/| — |/'
}

{
	echo "## Bin packing (haulbench binpack)"
	echo
	echo "Command: \`bench/scripts/binpack.sh $LIMIT\`, which runs"
	echo "\`go run ./bench/cmd/haulbench binpack -time $LIMIT -ref optima.csv FILE...\` once per group, one instance at a time (1 worker)."
	echo
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- loadplan/binpack bench || echo ' + local changes')"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(go version | cut -d' ' -f3-)"
	echo "- Time limit: $LIMIT per instance; seconds are wall time of Solve including reading nothing but the problem."
	echo "- The machine was shared with other engineers' builds and tests during the run, so times are noisy (upper estimates)."
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
} >"$OUT"
echo "wrote $OUT" >&2
