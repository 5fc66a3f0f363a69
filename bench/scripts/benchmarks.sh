#!/bin/sh
# benchmarks.sh writes BENCHMARKS.md from the sections in bench/results/*.md.
#
#   sh bench/scripts/benchmarks.sh          assemble the sections as they are
#   sh bench/scripts/benchmarks.sh --run    rerun every section's script first
#                                           (long: the VRPTW and bin-packing tables
#                                           take hours; each script states its own time)
#
# Each section is written by its own script in bench/scripts (geo.sh,
# delivery.sh, binpack.sh, vrptw.sh, ...), which records the machine, the Go
# version, the time limits and the exact command with its figures. No figure
# in BENCHMARKS.md is typed by hand.
set -eu
cd "$(dirname "$0")/../.."
if [ "${1:-}" = "--run" ]; then
	for s in bench/scripts/*.sh; do
		# compare.sh needs the commit to compare against: run it by hand.
		case "$s" in */benchmarks.sh | */compare.sh) continue ;; esac
		echo "== $s"
		case "$(head -1 "$s")" in
		*bash*) bash "$s" ;;
		*) sh "$s" ;;
		esac
	done
fi
out=BENCHMARKS.md
{
	echo "# Benchmarks"
	echo
	echo "Every section below was written by the script named in it; \`sh bench/scripts/benchmarks.sh\`"
	echo "assembles them into this file and \`sh bench/scripts/benchmarks.sh --run\` reruns them all."
	echo "Benchmark data sets live outside the repository in \`../shared/data\` (or \`\$HAULPLAN_DATA\`)."
	for f in bench/results/*.md; do
		[ -e "$f" ] || continue
		echo
		cat "$f"
	done
} >"$out"
echo "wrote $out"
