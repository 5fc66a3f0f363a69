#!/bin/sh
# engine.sh plans the quickstart sample with several seeds and runs the
# engine benchmarks, and writes bench/results/engine.md.
# Usage: sh bench/scripts/engine.sh   (about 1 minute)
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/engine.md
limit=10s
load=$(cut -d" " -f1-3 /proc/loadavg)
go build -o /tmp/haulplan-quickstart ./examples/quickstart
bench="go test -run '^\$' -bench . -benchtime 5x -count 1 ./engine"
raw=$(nice sh -c "$bench")
{
	echo "## engine: the quickstart sample end to end"
	echo
	echo "\`examples/quickstart/sample.json\`: 48 stores, 400 pallets, 26 trailers of 4 types, 26 shifts."
	echo "Each row is one planning call with all cores (the default 4 search streams) and the time limit below; every plan passed Validate."
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "- $(go version)"
	echo "- time limit: $limit per call; load average before the run: $load"
	echo "- command: \`go run ./examples/quickstart -time $limit -seed N\`"
	echo
	echo "| seed | routes | trailers lower bound | stops | delivered | unassigned | km | driving | cost |"
	echo "|---:|---:|---:|---:|---:|---:|---:|---|---:|"
	for seed in 1 2 3; do
		/tmp/haulplan-quickstart -time $limit -seed $seed >/tmp/haulplan-qs.txt
		grep -q '^Validate: OK' /tmp/haulplan-qs.txt || { echo "seed $seed: plan failed validation" >&2; exit 1; }
		row=$(grep '^Totals:' /tmp/haulplan-qs.txt | sed -nE 's/^Totals: ([0-9]+) routes \(no plan needs fewer than ([0-9]+) for these pallets\)[^,]*, ([0-9]+) stops, ([0-9]+) pallets delivered, ([0-9]+) unassigned; ([0-9.]+) km, ([^ ]+) driving, .* cost ([0-9.]+);.*/| '"$seed"' | \1 | \2 | \3 | \4 | \5 | \6 | \7 | \8 |/p')
		[ -n "$row" ] || { echo "seed $seed: the quickstart's Totals line did not parse:" >&2; grep '^Totals:' /tmp/haulplan-qs.txt >&2; exit 1; }
		echo "$row"
	done
	echo
	echo "Benchmarks (\`$bench\`): Validate of the sample's plan, and Plan with the default 4 search streams of 200 routing iterations each on one goroutine."
	echo
	echo "| benchmark | ms/op |"
	echo "|---|---:|"
	echo "$raw" | awk '/^Benchmark/ { printf "| %s | %.1f |\n", $1, $3/1e6 }'
} >"$out"
echo "wrote $out"
