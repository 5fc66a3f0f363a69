#!/usr/bin/env bash
# vrptw.sh runs haulbench vrptw on the table of issue 3 and writes
# bench/results/vrptw.md.
#
# Usage: bench/scripts/vrptw.sh [SET...]
#   SET is any of solomon-hierarchical solomon-distance homberger200
#   homberger1000 random5000; default all five (about 1 h 45 min on one core).
#   homberger200-sample and homberger1000-sample run instances 1 and 6 of
#   each of the six classes (12 of 60) for a quicker progress check.
#   Time limits per instance can be overridden: T_SOLOMON_H (10s),
#   T_SOLOMON_D (2s), T_H200 (30s), T_H1000 (60s), T_RANDOM (60s).
# The data is looked up in ../shared/data (or $HAULPLAN_DATA). One worker
# per instance, one instance at a time per set, run with nice. PARALLEL=2
# runs two sets side by side (one core each on a 2-core machine); list the
# longest set first. OUT names the section file (default
# bench/results/vrptw.md), so a single set at another time limit can keep a
# section of its own:
#   OUT=bench/results/vrptw-solomon-30s.md T_SOLOMON_H=30s bench/scripts/vrptw.sh solomon-hierarchical
set -eu
cd "$(dirname "$0")/../.."
DATA=${HAULPLAN_DATA:-../shared/data}/vrptw
OUT=${OUT:-bench/results/vrptw.md}
[ -d "$DATA" ] || { echo "vrptw.sh: benchmark data not found under $DATA" >&2; exit 1; }
T_SOLOMON_H=${T_SOLOMON_H:-10s}
T_SOLOMON_D=${T_SOLOMON_D:-2s}
T_H200=${T_H200:-30s}
T_H1000=${T_H1000:-60s}
T_RANDOM=${T_RANDOM:-60s}
SETS=${*:-solomon-hierarchical solomon-distance homberger200 homberger1000 random5000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
go build -o "$TMP/haulbench" ./bench/cmd/haulbench

# run SET OBJECTIVE TIME REF FILE... : one haulbench call; CSV and stderr kept.
run() {
	set_=$1 obj=$2 lim=$3 ref=$4
	shift 4
	echo "vrptw.sh: $set_ ($obj, $lim per instance)" >&2
	nice "$TMP/haulbench" vrptw -time "$lim" -objective "$obj" -workers 1 -seed 1 -ref "$ref" "$@" \
		>"$TMP/$set_.csv" 2>"$TMP/$set_.err" || echo "haulbench failed on $set_, see below" >>"$TMP/$set_.err"
}

# sample K: instances 1 and 6 of every class of the K00-customer set.
sample() {
	for c in c1 c2 r1 r2 rc1 rc2; do
		echo "$DATA/homberger/${1}00/${c}_${1}_1.txt $DATA/homberger/${1}00/${c}_${1}_6.txt"
	done
}

# row SET OBJECTIVE TIME TARGET : a Markdown row from haulbench's summary.
row() {
	err=$TMP/$1.err
	n=$(sed -n 's/^scored \([0-9]*\) instances.*/\1/p' "$err")
	veh=$(sed -n 's/^vehicles: \([0-9]*\), reference \([0-9]*\).*/\1 (ref \2)/p' "$err")
	dist=$(sed -n 's/^distance: \([0-9.]*\), reference \([0-9.]*\) (\(.*\))$/\1 (ref \2, \3)/p' "$err")
	gap=$(sed -n 's/^average gap \([-0-9.]*%\), worst \([-0-9.]*%\) (\([^)]*\)), \([0-9]*\) at or below.*/\1 | \2 (\3) | \4/p' "$err")
	secs=$(awk -F, 'NR > 1 { s += $4; if ($4 > m) m = $4 } END { if (NR > 1) printf "%.2f / %.2f", s / (NR - 1), m }' "$TMP/$1.csv")
	echo "| $1 | $2, $3 | $n | $veh | $dist | $gap | $secs | $4 |"
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
one() {
	s=$1
	case $s in
	solomon-hierarchical) run "$s" hierarchical "$T_SOLOMON_H" "$DATA/bks.csv" "$DATA"/solomon/*.txt ;;
	solomon-distance) run "$s" distance "$T_SOLOMON_D" "$DATA/bks_distance.csv" "$DATA"/solomon/*.txt ;;
	homberger200) run "$s" distance "$T_H200" "$DATA/bks_distance.csv" "$DATA"/homberger/200/*.txt ;;
	homberger1000) run "$s" distance "$T_H1000" "$DATA/bks_distance.csv" "$DATA"/homberger/1000/*.txt ;;
	homberger200-sample) run "$s" distance "$T_H200" "$DATA/bks_distance.csv" $(sample 2) ;;
	homberger1000-sample) run "$s" distance "$T_H1000" "$DATA/bks_distance.csv" $(sample 10) ;;
	random5000)
		echo "vrptw.sh: random5000 (distance, $T_RANDOM)" >&2
		if [ -x /usr/bin/time ]; then
			nice /usr/bin/time -f 'peak RSS %M KB' "$TMP/haulbench" vrptw -time "$T_RANDOM" -objective distance -seed 1 -random 5000 \
				>"$TMP/$s.csv" 2>"$TMP/$s.err" || true
		else
			nice "$TMP/haulbench" vrptw -time "$T_RANDOM" -objective distance -seed 1 -random 5000 >"$TMP/$s.csv" 2>"$TMP/$s.err" || true
		fi
		;;
	*) echo "vrptw.sh: unknown set $s" >&2; exit 2 ;;
	esac
}
PARALLEL=${PARALLEL:-1}
running=0
for s in $SETS; do
	one "$s" &
	running=$((running + 1))
	if [ "$running" -ge "$PARALLEL" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

{
	if [ "$OUT" = bench/results/vrptw.md ]; then
		echo "## VRPTW (haulbench vrptw)"
	else
		echo "## VRPTW: $* at T_SOLOMON_H=$T_SOLOMON_H T_SOLOMON_D=$T_SOLOMON_D T_H200=$T_H200 T_H1000=$T_H1000 T_RANDOM=$T_RANDOM (haulbench vrptw)"
	fi
	echo
	echo "Command: \`OUT=$OUT T_SOLOMON_H=$T_SOLOMON_H T_SOLOMON_D=$T_SOLOMON_D T_H200=$T_H200 T_H1000=$T_H1000 T_RANDOM=$T_RANDOM bench/scripts/vrptw.sh $*\`, which runs"
	echo "\`go run ./bench/cmd/haulbench vrptw -time T -objective O -workers 1 -seed 1 -ref REF.csv FILE...\` once per set, one instance at a time."
	echo
	echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- routeplan bench/vrptw bench/cmd/haulbench || echo ' + local changes')"
	echo "- Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(go version | cut -d' ' -f3-)"
	echo "- Solver: routeplan (ruin-and-recreate with string removal, cheapest insertion with blinks, granular local search, simulated annealing; route elimination with absence weights first under the hierarchical objective)."
	echo "- Every solution was re-checked by bench/vrptw.Validate (capacity, windows, depot return, each customer once) before it was printed."
	echo "- Sets run side by side: $PARALLEL (one worker each). Load average at the start: $LOAD_START; at the end: $LOAD_END."
	echo "- hierarchical: double-precision distance vs bks.csv (SINTEF); distance: DIMACS truncation vs bks_distance.csv (CVRPLIB). Gap = 100·(distance − ref)/ref, averaged over instances."
	echo
	echo "| set | objective, time per instance | instances | vehicles | distance | average gap | worst gap | at or below ref | mean / max s | target |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for s in $SETS; do
		case $s in
		solomon-hierarchical) row "$s" hierarchical "$T_SOLOMON_H" "vehicles ≤ 410, distance ≤ 58,000" ;;
		solomon-distance) row "$s" distance "$T_SOLOMON_D" "average gap ≤ 1.0 %" ;;
		homberger200) row "$s" distance "$T_H200" "average gap ≤ 2.0 %" ;;
		homberger1000) row "$s" distance "$T_H1000" "average gap ≤ 5.0 %" ;;
		homberger200-sample) row "$s" distance "$T_H200" "(12 of 60) average gap ≤ 2.0 %" ;;
		homberger1000-sample) row "$s" distance "$T_H1000" "(12 of 60) average gap ≤ 5.0 %" ;;
		esac
	done
	case " $SETS " in
	*" random5000 "*)
		echo
		echo "### Random 5,000-customer instance (vrptw.Random, seed 1; distance, $T_RANDOM)"
		echo
		echo "Target: first feasible solution within 60 s, peak RSS ≤ 2 GB."
		echo
		echo '```'
		cat "$TMP/random5000.csv" "$TMP/random5000.err"
		echo '```'
		;;
	esac
	for s in $SETS; do
		[ "$s" = random5000 ] && continue
		echo
		echo "<details><summary>$s: per instance (CSV) and haulbench summary</summary>"
		echo
		echo '```'
		cat "$TMP/$s.csv"
		echo
		cat "$TMP/$s.err"
		echo '```'
		echo "</details>"
	done
} >"$OUT"
echo "vrptw.sh: wrote $OUT" >&2
