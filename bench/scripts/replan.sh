#!/bin/sh
# replan.sh measures how far a plan made from scratch strays from the
# released plan after the night's late changes (dcday.LateChanges: 5 % more
# pallets on the day's stores, 2 stores added, 1 removed), the figure that
# re-planning from the previous plan is to beat, and writes
# bench/results/replan.md.
# Usage: sh bench/scripts/replan.sh   (from anywhere inside the repository)
# It runs haulbench replan on the generated 200-store day at 10 s and the
# 1,000-store day at 30 s (each time limit for each of the two plans): about
# 1 min 30 s.
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/replan.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/haulbench" ./bench/cmd/haulbench
day() {
	cut -d" " -f1-3 /proc/loadavg >"$tmp/$1.load"
	nice /usr/bin/time -f 'time: %e s elapsed, maximum RSS %M KB, exit %x' -o "$tmp/$1.time" \
		"$tmp/haulbench" replan -stores "$1" -time "$2" -seed 1 >"$tmp/$1.csv" 2>"$tmp/$1.err"
}
day 200 10s
day 1000 30s
{
	echo "## Re-planning without the previous plan (haulbench replan)"
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), shared with other work"
	echo "- $(go version); date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
	echo "- command: \`sh bench/scripts/replan.sh\`, which runs \`haulbench replan -stores 200 -time 10s -seed 1\`"
	echo "  (load average before: $(cat "$tmp/200.load")) and \`haulbench replan -stores 1000 -time 30s -seed 1\` (load average before: $(cat "$tmp/1000.load"))"
	echo
	echo "A generated day is planned, changed as a night changes it (dcday.LateChanges: 5 % more pallets on the"
	echo "day's stores, 2 stores added, 1 removed) and planned again from scratch; engine.Changes compares the"
	echo "two plans, routes told apart by trailer unit, shift and trip. moved_or_retimed_share is the stores moved"
	echo "to other routes or whose first or last arrival moved by more than 15 minutes, over the stores both"
	echo "plans deliver (re-planning's target: under 10 % of the unlocked stops); routes_changed counts the routes"
	echo "of either plan whose paperwork (trailer, stops, their order, their pallets) the other does not have."
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
