#!/bin/sh
# docs.sh plans the bundled sample with an iteration budget (the same plan
# on any machine), writes its reports with -out, copies the route map and
# one multi-temperature trailer floor to docs/ for the README, and renders
# every picture and the HTML page to PNG so that a person can look at them:
# the SVGs with rsvg-convert (Debian: librsvg2-bin), the page with headless
# Chromium (Debian: chromium). Nothing but docs/ is written in the checkout.
# Usage: sh examples/quickstart/docs.sh [DIR]   (reports and PNGs in DIR, default a temporary one)
set -eu
cd "$(dirname "$0")/../.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
go run ./examples/quickstart -iterations 300 -seed 1 -out "$out" >"$out/summary.txt"
grep -q '^Validate: OK' "$out/summary.txt"

# The README's pictures: the route map, and the first trailer that carries
# all three temperature classes (else route R1's).
mkdir -p docs
cp "$out/routes.svg" docs/route-map.svg
floor="$out/trailers/R1.svg"
for f in $(ls "$out"/trailers/*.svg | sort -V); do
	if grep -q 'FROZEN ·' "$f" && grep -q 'CHILLED ·' "$f" && grep -q 'AMBIENT ·' "$f"; then
		floor=$f
		break
	fi
done
cp "$floor" docs/trailer-floor.svg

mkdir -p "$out/png/trailers"
if command -v rsvg-convert >/dev/null; then
	for f in "$out"/*.svg "$out"/trailers/*.svg; do
		rel=${f#"$out"/}
		rsvg-convert "$f" -o "$out/png/${rel%.svg}.png"
	done
else
	echo "docs.sh: no rsvg-convert (apt-get install librsvg2-bin); SVGs not rendered" >&2
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
	# A tall window shows the whole page in one screenshot; the page fetches
	# nothing, and the flags keep the browser off the network too.
	"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --hide-scrollbars \
		--window-size=1280,12000 --screenshot="$out/png/index.png" "file://$(cd "$out" && pwd)/index.html" 2>/dev/null
else
	echo "docs.sh: no chromium (apt-get install chromium); page not rendered" >&2
fi
echo "docs.sh: reports in $out, pictures in $out/png; docs/route-map.svg and docs/trailer-floor.svg updated from $(basename "$floor")"
