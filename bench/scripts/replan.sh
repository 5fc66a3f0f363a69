#!/bin/sh
# replan.sh measures re-planning a released plan after the night's late
# changes (dcday.LateChanges: 5 % more pallets on the day's stores, 2 stores
# added, 1 removed, none of them on a locked route), and writes
# bench/results/replan.md: planned from scratch (no previous plan), and from
# the previous plan with half its routes locked (lock.before at the median
# loading start).
# Usage: sh bench/scripts/replan.sh   (from anywhere inside the repository)
# It runs haulbench replan on the quickstart's bundled sample (48 stores,
# 10 s each), the generated 200-store day (first plan and re-plan from
# scratch at 10 s each) and the 1,000-store day (30 s each),
# each re-planned from the previous plan with no time limit set (the
# engine's default for a re-plan, engine.DefaultReplanTimeLimit): about
# 2.5 min.
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/replan.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/haulbench" ./bench/cmd/haulbench
# day NAME TIME ARGS...: one haulbench replan run, its output under NAME.
day() {
	name=$1 limit=$2
	shift 2
	cut -d" " -f1-3 /proc/loadavg >"$tmp/$name.load"
	nice /usr/bin/time -f 'time: %e s elapsed, maximum RSS %M KB, exit %x' -o "$tmp/$name.time" \
		"$tmp/haulbench" replan "$@" -time "$limit" -lock before -seed 1 >"$tmp/$name.csv" 2>"$tmp/$name.err"
}
day sample 10s -request examples/quickstart/sample.json
day 200 10s -stores 200
day 1000 30s -stores 1000
{
	echo "## Re-planning a released plan (haulbench replan)"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), shared with other work"
	echo "- $(go version); date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
	echo "- command: \`sh bench/scripts/replan.sh\`, which runs \`haulbench replan -request examples/quickstart/sample.json -time 10s -lock before -seed 1\`"
	echo "  (load average before: $(cat "$tmp/sample.load")), the same with \`-stores 200\` for the request (load average before: $(cat "$tmp/200.load"))"
	echo "  and with \`-stores 1000 -time 30s\` (load average before: $(cat "$tmp/1000.load"))"
	echo
	echo "The quickstart's sample and a generated day are each planned, changed as a night changes it (dcday.LateChangesSparing: 5 % more pallets on"
	echo "the day's stores, 2 stores added, 1 removed that no locked route delivers) and planned again: from scratch"
	echo "(mode scratch, the time limit of the first plan), and from the previous plan (mode previous: request"
	echo "members previous and lock, lock.before at the median loading start, so about half the routes are locked;"
	echo "no time limit set, so the engine's default for a re-plan, engine.DefaultReplanTimeLimit, 1.5 s; the seconds"
	echo "column is the whole engine.Plan call). engine.Changes compares the plans, routes told"
	echo "apart by trailer unit, shift and trip. moved_or_retimed_share is the stores moved to other routes or whose"
	echo "first or last arrival moved by more than 15 minutes, over the stores both plans deliver; unlocked_share the"
	echo "same over the stores no locked route delivers (a store whose late pallets ride a second truck counts as"
	echo "moved there); unlocked_stops_share is the issue's target, the stops of the unlocked routes that the new plan"
	echo "does not make on the same route within 15 minutes (target under 10 %); locked_changed counts the locked"
	echo "routes not in the new plan as they were, nor as they were with late pallets added as engine.Lock allows a locked"
	echo "route that has not departed by lock.before (every pallet where it stood, times later by at most 15 minutes;"
	echo "engine.Validate checks it too); locked_gained counts those that took late pallets, extra_on_locked the pallets;"
	echo "first_full_seconds is when the call's search first had a plan delivering as many pallets as the plan it"
	echo "returned (engine.Progress: Best gives it), the time to a first plan (target at 1,000 stores: 2 s)."
	echo
	echo '```'
	sed -n 1p "$tmp/sample.csv"
	sed -n '2,$p' "$tmp/sample.csv"
	sed -n '2,$p' "$tmp/200.csv"
	sed -n '2,$p' "$tmp/1000.csv"
	echo
	cat "$tmp/sample.err" "$tmp/sample.time" "$tmp/200.err" "$tmp/200.time" "$tmp/1000.err" "$tmp/1000.time"
	echo '```'
} >"$out"
echo "wrote $out"
