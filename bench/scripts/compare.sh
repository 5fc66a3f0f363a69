#!/usr/bin/env bash
# compare.sh measures the figures a change of the solvers must hold, for two
# commits in one run on one machine, and writes bench/results/compare.md.
#
# Usage: bench/scripts/compare.sh BASE [SET...]
#   BASE is the commit to compare against (a tag, a branch, a hash); the
#   other side is the work tree as it is. SET is any of:
#     speed                 routeplan's BenchmarkSolve200 and
#                           BenchmarkSolve200Rules, and bench/vrptw's
#                           BenchmarkSolomonIterations (the work tree's
#                           benchmark file is laid into the base's tree), base
#                           and work tree alternating (ROUNDS rounds, default 6)
#     solomon-distance      Solomon, distance objective, 1 s per instance
#     solomon-hierarchical  Solomon, fewest vehicles then distance, 30 s
#     homberger200          Homberger 200, distance objective, 30 s
#     dcday1000             the generated 1,000-store day, 60 s
#   default: all five, in that order (about 65 minutes on 2 cores).
#   T_SOLOMON_D, T_SOLOMON_H, T_H200 and T_DCDAY override the time limits.
# The VRPTW sets run the base and the work tree side by side, one instance
# at a time each with one worker, so that each has one core of a 2-core
# machine; the DC day runs the base, then the work tree, each with the
# whole machine. The data is looked up in ../shared/data (or
# $HAULPLAN_DATA).
set -eu
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
BASE=$1
shift
SETS=${*:-speed solomon-distance solomon-hierarchical homberger200 dcday1000}
DATA=${HAULPLAN_DATA:-../shared/data}/vrptw
T_SOLOMON_D=${T_SOLOMON_D:-1s}
T_SOLOMON_H=${T_SOLOMON_H:-30s}
T_H200=${T_H200:-30s}
T_DCDAY=${T_DCDAY:-60s}
ROUNDS=${ROUNDS:-6}
OUT=${OUT:-bench/results/compare.md}
command="bench/scripts/compare.sh $BASE${*:+ $*}"
[ "$OUT" = bench/results/compare.md ] || command="OUT=$OUT $command"
base_rev=$(git rev-parse --short "$BASE")
new_rev="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench/results' || echo ' + local changes')"

TMP=$(mktemp -d)
trap 'git worktree remove --force "$TMP/tree" >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT
git worktree add --detach "$TMP/tree" "$BASE" >/dev/null 2>&1
cp bench/vrptw/solve_bench_test.go "$TMP/tree/bench/vrptw/"
echo "compare.sh: building $base_rev and the work tree" >&2
(cd "$TMP/tree" && go build -o "$TMP/base/haulbench" ./bench/cmd/haulbench && go test -c -o "$TMP/base/routeplan.test" ./routeplan &&
	go test -c -o "$TMP/base/vrptw.test" ./bench/vrptw)
go build -o "$TMP/new/haulbench" ./bench/cmd/haulbench
go test -c -o "$TMP/new/routeplan.test" ./routeplan
go test -c -o "$TMP/new/vrptw.test" ./bench/vrptw
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# vrptw SET OBJECTIVE LIMIT REF FILE...: both sides side by side.
vrptw() {
	set_=$1 obj=$2 lim=$3 ref=$4
	shift 4
	echo "compare.sh: $set_ ($obj, $lim per instance), both sides" >&2
	for side in base new; do
		nice "$TMP/$side/haulbench" vrptw -time "$lim" -objective "$obj" -workers 1 -seed 1 -ref "$ref" "$@" \
			>"$TMP/$side/$set_.csv" 2>"$TMP/$side/$set_.err" &
	done
	wait
}

# dcday STORES LIMIT: the base, then the work tree.
dcday() {
	for side in base new; do
		echo "compare.sh: dcday $1 stores, $2, $side" >&2
		nice "$TMP/$side/haulbench" dcday -stores "$1" -time "$2" -seed 1 >"$TMP/$side/dcday.csv" 2>"$TMP/$side/dcday.err"
	done
}

# speed: the routeplan benchmarks, the two sides alternating.
speed() {
	echo "compare.sh: routeplan benchmarks, $ROUNDS rounds" >&2
	for i in $(seq 1 "$ROUNDS"); do
		for side in base new; do
			(cd routeplan && nice "$TMP/$side/routeplan.test" -test.run '^$' -test.bench 'BenchmarkSolve200$|BenchmarkSolve200Rules$' \
				-test.benchtime 20x -test.count 1) >>"$TMP/$side/speed.txt"
			(cd bench/vrptw && nice "$TMP/$side/vrptw.test" -test.run '^$' -test.bench 'BenchmarkSolomonIterations$' \
				-test.benchtime 1x -test.count 1) >>"$TMP/$side/speed.txt"
		done
	done
}

for s in $SETS; do
	case $s in
	speed) speed ;;
	solomon-distance) vrptw "$s" distance "$T_SOLOMON_D" "$DATA/bks_distance.csv" "$DATA"/solomon/*.txt ;;
	solomon-hierarchical) vrptw "$s" hierarchical "$T_SOLOMON_H" "$DATA/bks.csv" "$DATA"/solomon/*.txt ;;
	homberger200) vrptw "$s" distance "$T_H200" "$DATA/bks_distance.csv" "$DATA"/homberger/200/*.txt ;;
	dcday1000) dcday 1000 "$T_DCDAY" ;;
	*) echo "compare.sh: unknown set $s" >&2; exit 2 ;;
	esac
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# gap SIDE SET: "average gap (vehicles, distance)" from haulbench's summary.
gap() {
	err=$TMP/$1/$2.err
	g=$(sed -n 's/^average gap \([-0-9.]*%\).*/\1/p' "$err")
	v=$(sed -n 's/^vehicles: \([0-9]*\), reference \([0-9]*\).*/\1 (ref \2)/p' "$err")
	d=$(sed -n 's/^distance: \([0-9.]*\), reference.*/\1/p' "$err")
	echo "${g:-failed} avg gap; $v vehicles; distance $d"
}

# ms SIDE BENCH: the mean ms/op of a benchmark over the rounds.
ms() {
	awk -v b="$2" '$1 ~ "^"b"(-[0-9]+)?$" { s += $3; n++ } END { if (n) printf "%.1f", s / n / 1e6 }' "$TMP/$1/speed.txt"
}

# day SIDE: routes, the bound, how far over, delivered.
day() {
	sed -n 2p "$TMP/$1/dcday.csv" | awk -F, '{
		printf "%d routes, bound %d (%+.1f %%), %s delivered, %d unassigned, %.1f s", $4, $5, 100 * ($4 - $5) / $5, $6, $7, $11 }'
}

{
	echo "## Side by side: $base_rev against $new_rev"
	echo
	echo "Command: \`$command\` (T_SOLOMON_D=$T_SOLOMON_D T_SOLOMON_H=$T_SOLOMON_H T_H200=$T_H200 T_DCDAY=$T_DCDAY ROUNDS=$ROUNDS)."
	echo
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(go version | cut -d' ' -f3-)"
	echo "- Load average at the start: $load_start; at the end: $load_end."
	echo "- VRPTW sets: base and work tree side by side, one worker each, seed 1. The DC day: base, then work tree, seed 1, default streams."
	echo
	echo "| figure | base $base_rev | work tree $new_rev |"
	echo "|---|---|---|"
	for s in $SETS; do
		case $s in
		speed)
			pb=$(ms base BenchmarkSolve200) pn=$(ms new BenchmarkSolve200)
			rb=$(ms base BenchmarkSolve200Rules) rn=$(ms new BenchmarkSolve200Rules)
			echo "| BenchmarkSolve200, ms/op (mean of $ROUNDS) | $pb | $pn ($(awk -v a="$pn" -v b="$pb" 'BEGIN { printf "%.2f×", a / b }') base) |"
			echo "| BenchmarkSolve200Rules, ms/op | $rb | $rn |"
			sb=$(ms base BenchmarkSolomonIterations) sn=$(ms new BenchmarkSolomonIterations)
			echo "| BenchmarkSolomonIterations, ms/op | $sb | $sn ($(awk -v a="$sn" -v b="$sb" 'BEGIN { printf "%.2f×", a / b }') base) |"
			echo "| Rules / plain | $(awk -v a="$rb" -v b="$pb" 'BEGIN { printf "%.2f×", a / b }') | $(awk -v a="$rn" -v b="$pn" 'BEGIN { printf "%.2f×", a / b }') |"
			;;
		solomon-distance) echo "| Solomon distance, $T_SOLOMON_D | $(gap base "$s") | $(gap new "$s") |" ;;
		solomon-hierarchical) echo "| Solomon hierarchical, $T_SOLOMON_H | $(gap base "$s") | $(gap new "$s") |" ;;
		homberger200) echo "| Homberger 200, distance, $T_H200 | $(gap base "$s") | $(gap new "$s") |" ;;
		dcday1000) echo "| dcday 1,000 stores, $T_DCDAY | $(day base) | $(day new) |" ;;
		esac
	done
	echo
	echo "<details><summary>raw output</summary>"
	echo
	echo '```'
	for side in base new; do
		for f in "$TMP/$side"/*.csv "$TMP/$side"/*.err "$TMP/$side"/*.txt; do
			[ -f "$f" ] || continue
			echo "== $side/$(basename "$f")"
			cat "$f"
		done
	done
	echo '```'
	echo "</details>"
} >"$OUT"
echo "compare.sh: wrote $OUT" >&2
