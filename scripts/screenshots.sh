#!/usr/bin/env bash
# Runs the example sweep and photographs its report.html in headless Chromium at 1280 and 390 px
# wide, as a person would see it on a laptop and on a phone: the top of the page (the finding and
# the importance chart) and the whole-sweep views (#views). The PNGs go to docs/screenshots/ (for
# the README tour); look at them after any change to the report.
#
# Before photographing it checks the layout at both widths (scripts/layout-check.js, every fold
# open): no title, caption or chart text cut off, the table of contents present, the parallel
# coordinates at full width (required on the example, which sweeps three axes). A failure names
# each element and the script exits 1.
#
#   scripts/screenshots.sh [--bin PATH/TO/worldsweep] [--run DIR] [--out DIR] [--check-only]
#
# --bin: use this binary instead of building the release one; --run: photograph the report of an
# existing run folder instead of running the sweep; --check-only: measure and check, no pictures.
# FULL_PAGE=1 also photographs the whole page (large files, to look over). Needs Chromium
# (apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="" run="" out="docs/screenshots" check_only=0 need_parallel=0
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --run) run="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --check-only) check_only=1; shift ;;
        *) echo "scripts/screenshots.sh: unknown argument $1 (use --bin PATH, --run DIR, --out DIR, --check-only)" >&2; exit 2 ;;
    esac
done

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ]; then
    echo "scripts/screenshots.sh: no Chromium found; install it with: apt-get install -y chromium" >&2
    exit 1
fi

if [ -z "$run" ]; then
    if [ -z "$bin" ]; then
        swift build -c release --product worldsweep
        bin="$(swift build -c release --show-bin-path)/worldsweep"
    fi
    run="runs/screenshots-twin-drop"
    need_parallel=1   # the example has three swept axes: its page must show them all
    "$bin" run Sweeps/twin-drop.yaml --out "$run" --force --quiet
fi
report="$(cd "$run" && pwd)/report.html"
[ -f "$report" ] || { echo "scripts/screenshots.sh: no report at $report" >&2; exit 1; }

mkdir -p "$out"
# Chromium's headless screenshot ignores a #fragment, so the views are photographed from a copy of
# the page with everything above them hidden (the copy lives in a temporary folder).
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
sed 's|</head>|<style>main > *:not(#views){display:none}</style></head>|' "$report" > "$scratch/views.html"

shoot() {   # NAME WIDTH HEIGHT PAGE
    # A private profile folder: a browser already open for the user is left alone.
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$scratch/profile" \
        --window-size="$2,$3" --screenshot="$out/$1.png" "file://$4" >/dev/null 2>&1
    [ -s "$out/$1.png" ] || { echo "scripts/screenshots.sh: $browser wrote no $out/$1.png" >&2; exit 1; }
    echo "$out/$1.png"
}
# The page's height at each width (a copy with a one-line script that writes it into the page,
# read back with --dump-dom): the report aims at a page a person reads, not one to scroll through.
sed 's|</body>|<script>document.body.setAttribute("data-height", document.documentElement.scrollHeight)</script></body>|' "$report" > "$scratch/height.html"
measure() {   # WIDTH
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$scratch/profile" \
        --window-size="$1,900" --dump-dom "file://$scratch/height.html" 2>/dev/null | grep -o 'data-height="[0-9]*"' | grep -o '[0-9]*'
}
for w in 1280 390; do echo "report.html at $w px wide: $(measure $w) px tall"; done
# The layout check (scripts/layout-check.js, run in the page with every fold open): nothing cut
# off or outside its chart, the table of contents there, parallel coordinates at full width. It
# fails the script, naming each element, at either width.
{ sed 's|</body>|<script>|; s|</html>||' "$report"; cat scripts/layout-check.js; echo '</script></body></html>'; } > "$scratch/check.html"
failed=0
for w in 1280 390; do
    dom="$("$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$scratch/profile" \
        --window-size="$w,900" --dump-dom "file://$scratch/check.html" 2>/dev/null)"
    result="$(printf '%s' "$dom" | grep -o 'data-layout="[^"]*"' | sed 's/^data-layout="//; s/"$//; s/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' || true)"
    if [ -z "$result" ]; then
        echo "scripts/screenshots.sh: the layout check did not run at $w px" >&2; failed=1
    elif [ "$result" != ok ]; then
        printf '%s\n' "$result" | sed 's/@@@/\n/g' | sed "s|^|scripts/screenshots.sh: at $w px: |" >&2; failed=1
    else
        echo "layout at $w px: nothing cut off, table of contents present$(case "$dom" in *'data-parallel="yes"'*) echo ', parallel coordinates at full width' ;; esac)"
    fi
    if [ "$need_parallel" = 1 ] && case "$dom" in *'data-parallel="yes"'*) false ;; *) true ;; esac; then
        echo "scripts/screenshots.sh: at $w px: no parallel-coordinates chart (#parallel figure)" >&2; failed=1
    fi
done
[ "$check_only" = 1 ] && exit "$failed"
shoot report-1280-top 1280 1500 "$report"
shoot report-1280-views 1280 1500 "$scratch/views.html"
shoot report-390-top 390 1600 "$report"
shoot report-390-views 390 1600 "$scratch/views.html"
if [ "${FULL_PAGE:-}" = 1 ]; then   # the whole page, to look over (large files: not for docs/)
    shoot report-1280-full 1280 12000 "$report"
    shoot report-390-full 390 30000 "$report"
fi
exit "$failed"
