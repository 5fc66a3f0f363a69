#!/bin/sh
# replan.sh measures re-planning a released plan after the night's late
# changes (dcday.LateChanges: 5 % more pallets on the day's stores, 2 stores
# added, 1 removed, none of them on a locked route), and writes
# bench/results/replan.md: planned from scratch (no previous plan), and from
# the previous plan with half its routes locked (lock.before at the median
# loading start).
# Usage: sh bench/scripts/replan.sh   (from anywhere inside the repository)
# It runs haulbench replan on the generated 200-store day (first plan and
# re-plan from scratch at 10 s each) and the 1,000-store day (30 s each),
# each re-planned from the previous plan with no time limit set (the
# engine's default for a re-plan, engine.DefaultReplanTimeLimit): about
# 2 min.
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/replan.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/haulbench" ./bench/cmd/haulbench
day() {
	cut -d" " -f1-3 /proc/loadavg >"$tmp/$1.load"
	nice /usr/bin/time -f 'time: %e s elapsed, maximum RSS %M KB, exit %x' -o "$tmp/$1.time" \
		"$tmp/haulbench" replan -stores "$1" -time "$2" -lock before -seed 1 >"$tmp/$1.csv" 2>"$tmp/$1.err"
}
day 200 10s
day 1000 30s
{
	echo "## Re-planning a released plan (haulbench replan)"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), shared with other work"
	echo "- $(go version); date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
	echo "- command: \`sh bench/scripts/replan.sh\`, which runs \`haulbench replan -stores 200 -time 10s -lock before -seed 1\`"
	echo "  (load average before: $(cat "$tmp/200.load")) and the same with \`-stores 1000 -time 30s\` (load average before: $(cat "$tmp/1000.load"))"
	echo
	echo "A generated day is planned, changed as a night changes it (dcday.LateChangesSparing: 5 % more pallets on"
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
	echo "routes not in the new plan as they were, to the second and the placement (engine.Validate checks it too);"
	echo "first_full_seconds is when the call's search first had a plan delivering as many pallets as the plan it"
	echo "returned (engine.Progress: Best gives it), the time to a first plan (target at 1,000 stores: 2 s)."
	echo
	echo '```'
	sed -n 1p "$tmp/200.csv"
	sed -n '2,$p' "$tmp/200.csv"
	sed -n '2,$p' "$tmp/1000.csv"
	echo
	cat "$tmp/200.err" "$tmp/200.time" "$tmp/1000.err" "$tmp/1000.time"
	echo '```'
} >"$out"
echo "wrote $out"
