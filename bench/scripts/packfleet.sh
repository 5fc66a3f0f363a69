#!/bin/sh
# packfleet.sh runs the loadplan.PackFleet benchmarks and writes
# bench/results/packfleet.md.
# Usage: sh bench/scripts/packfleet.sh   (from anywhere inside the repository; under a minute)
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/packfleet.md
cmd="go test ./loadplan -run '^\$' -bench '^BenchmarkPackFleet' -benchtime 20x -count 1"
load=$(cut -d" " -f1-3 /proc/loadavg)
raw=$(nice sh -c "$cmd")
{
	echo "## loadplan: fleet packing (PackFleet)"
	echo
	echo "Pallets of many stores packed into as few trailers of a fleet as PackFleet finds, every"
	echo "trailer laid out by PlanTrailer (zones, positions, payload, volume, stacking, unloading"
	echo "order, axle loads). trailers, lower_bound (FleetLowerBound, the bound reported) and"
	echo "unplaced are the plan's; count_bound is the bound the search also stops at (trailers"
	echo "counted from the largest free one until their payload, volume and positions suffice);"
	echo "stops sums the stops over the trailers (lower is better at equal trailers); the firstfit"
	echo "columns are PackFleet's first packing alone, store-order first-fit (trailers, pallets it"
	echo "found no room for), before the binpack-guided packing and the improvement. The instances:"
	echo
	echo "- PackFleet: 300 standard pallets of 200–800 kg, 30 stores, one type (53 ft dry van, 30 positions), default options (1 s limit);"
	echo "- PackFleetMixed: 400 pallets, 48 stores, about 65 % ambient / 25 % chilled / 10 % frozen, one in ten a half pallet,"
	echo "  some stackable; fleet of 10 53 ft and 6 48 ft dry vans, 5 reefers, 4 three-zone reefers; 300 ms limit (as the engine);"
	echo "- PackFleetHeavyLight: 180 pallets, stores of six 1,000 kg pallets alternating with stores of twelve 100 kg ones,"
	echo "  where first-fit leaves payload-full trailers with empty positions; default options;"
	echo "- PackFleetWeightTight: 300 pallets of 25 stores cut from ten 53 ft trailers, each full in positions and 19,500 of"
	echo "  20,000 kg in payload, shuffled; default options;"
	echo "- PackFleetScarce: 800 pallets of the mixed kind, 96 stores, on a fleet with few large trailers left"
	echo "  (3 53 ft and 20 48 ft dry vans, 2 53 ft reefers, 6 three-zone reefers, 4 40 ft reefers); 300 ms limit."
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "- $(go version)"
	echo "- load average before the run: $load"
	echo "- command: \`$cmd\`"
	echo
	echo "| benchmark | ms/op | trailers | lower_bound | count_bound | unplaced | stops | firstfit trailers | firstfit unplaced |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	echo "$raw" | awk '/^BenchmarkPackFleet/ {
		for (i = 3; i < NF; i += 2) vals[$(i+1)] = $i
		printf "| %s | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |\n", $1, vals["ns/op"] / 1e6, vals["trailers"], vals["lower_bound"], vals["count_bound"], vals["unplaced"], vals["stops"], vals["firstfit_trailers"], vals["firstfit_unplaced"]
	}'
} >"$out"
echo "wrote $out"
