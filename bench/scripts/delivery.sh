#!/bin/sh
# delivery.sh runs the delivery update benchmarks (decode + merge + lock
# checks + validation of the result, one update per op) on one core and
# writes bench/results/delivery.md.
# Usage: sh bench/scripts/delivery.sh   (from anywhere inside the repository)
set -eu
cd "$(dirname "$0")/../.."
out=bench/results/delivery.md
cmd="go test -run '^\$' -bench '^(BenchmarkApply|BenchmarkApplyRejected|BenchmarkBook)\$' -benchmem -cpu 1 -count 5 ./delivery"
load=$(cut -d" " -f1-3 /proc/loadavg)
raw=$(nice sh -c "$cmd")
{
	echo "## delivery: update operation (Apply) and booking (Book)"
	echo
	echo "One op is one call on a booked delivery with 2 items, 1 scan group and 1 instruction:"
	echo "parse the JSON body, decode it with presence, merge into a deep copy, check locks,"
	echo "validate every booking constraint of the result. BenchmarkApply cycles through four"
	echo "accepted small updates; BenchmarkApplyRejected is an update refused for a locked field"
	echo "and a disallowed combination; BenchmarkBook decodes and validates a full booking."
	echo "Target (issue 5): >= 200,000 updates/s on one core."
	echo
	echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "- $(go version); GOMAXPROCS=1 (-cpu 1)"
	echo "- time limit: go test's default 1 s per benchmark run, 5 runs each; load average before the run: $load (other work on the machine lowers these figures)"
	echo "- command: \`$cmd\`"
	echo
	echo "Wall-clock figures suffer from the other jobs on the machine; CPU figures divide the"
	echo "process CPU time (getrusage) by the ops, which with one core in use is the cost per update."
	echo
	echo "| benchmark | runs | best ns/op | median ns/op | updates/s (wall, median) | CPU ns/op (median) | updates per CPU-second | B/op | allocs/op |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	echo "$raw" | awk '
		function median(arr, m,    x, y, t, s) {
			for (x = 1; x <= m; x++) s[x] = arr[x]
			for (x = 1; x <= m; x++) for (y = x + 1; y <= m; y++) if (s[y] < s[x]) { t = s[x]; s[x] = s[y]; s[y] = t }
			lo = s[1]
			return (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
		}
		/^Benchmark/ {
			name = $1
			delete v
			for (i = 3; i < NF; i += 2) v[$(i+1)] = $i
			c = ++n[name]
			ns[name, c] = v["ns/op"] + 0
			cpu[name, c] = ("cpu-ns/op" in v) ? v["cpu-ns/op"] + 0 : -1
			b[name] = v["B/op"]; a[name] = v["allocs/op"]
			if (!(name in seen)) { seen[name] = 1; order[++k] = name }
		}
		END {
			for (j = 1; j <= k; j++) {
				name = order[j]; m = n[name]
				for (x = 1; x <= m; x++) { w[x] = ns[name, x]; u[x] = cpu[name, x] }
				med = median(w, m); best = lo
				cmed = median(u, m)
				isbook = (name ~ /Book/)
				ups = isbook ? "—" : sprintf("%.0f", 1e9 / med)
				cns = (cmed < 0) ? "—" : sprintf("%.0f", cmed)
				cups = (cmed <= 0 || isbook) ? "—" : sprintf("%.0f", 1e9 / cmed)
				printf "| %s | %d | %.0f | %.0f | %s | %s | %s | %s | %s |\n", name, m, best, med, ups, cns, cups, b[name], a[name]
			}
		}'
	echo
	echo "<details><summary>raw output</summary>"
	echo
	echo '```'
	echo "$raw"
	echo '```'
	echo "</details>"
} >"$out"
echo "wrote $out"
