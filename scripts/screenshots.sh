#!/usr/bin/env bash
# Photographs the pages the tool writes, in headless Chromium at 1280 and 390 px wide, as a person
# would see them on a laptop and on a phone, after checking their layout at both widths
# (scripts/layout-check.js, every fold open: nothing scrolls sideways, no title, caption, cell or
# chart text cut off, the table of contents present, parallel coordinates at full width). A
# failure names the page, the width and each element, and the script exits 1.
#
#   scripts/screenshots.sh [--bin PATH/TO/worldsweep] [--run DIR] [--out DIR] [--check-only]
#   scripts/screenshots.sh --all [--bin PATH] [--out DIR] [--with-million] [--check-only]
#
# Without --all: runs the example sweep (Sweeps/twin-drop.yaml) and photographs its report.html,
# the top of the page and the whole-sweep views (#views), and the settle search's tune page
# (Sweeps/tune-spring-settle.yaml), into docs/screenshots/ (the README tour).
# --all: runs every example in Sweeps/ (`run` for a sweep, `tune` for a file with a `tune:`
# section), checks each page at both widths and photographs the top of each, NAME-1280.png and
# NAME-390.png, into runs/screenshots/ (--out DIR): to look over after a change, not for docs/.
# million-drops (a million worlds) only with --with-million.
# --bin: use this binary instead of building the release one; --run: photograph the report of an
# existing run folder; --check-only: check, no pictures. FULL_PAGE=1 also photographs whole pages
# (large files, to look over). Needs Chromium (apt-get install -y chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="" run="" out="" check_only=0 all=0 million=0
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --run) run="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --check-only) check_only=1; shift ;;
        --all) all=1; shift ;;
        --with-million) million=1; shift ;;
        *) echo "scripts/screenshots.sh: unknown argument $1 (use --bin PATH, --run DIR, --out DIR, --check-only, --all, --with-million)" >&2; exit 2 ;;
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
if [ -z "$bin" ] && { [ "$all" = 1 ] || [ -z "$run" ]; }; then
    swift build -c release --product worldsweep
    bin="$(swift build -c release --show-bin-path)/worldsweep"
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
headless() { "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$scratch/profile" "$@"; }

shoot() {   # NAME WIDTH HEIGHT PAGE: a window's worth of the page's top
    # A private profile folder: a browser already open for the user is left alone.
    headless --window-size="$2,$3" --screenshot="$out/$1.png" "file://$4" >/dev/null 2>&1
    [ -s "$out/$1.png" ] || { echo "scripts/screenshots.sh: $browser wrote no $out/$1.png" >&2; exit 1; }
    echo "$out/$1.png"
}

# check NAME REPORT NEED_PARALLEL: the page's height at each width (a person reads a page, not a
# scroll), then the layout check in the page at both widths. Returns 1 on any problem.
check() {
    local name="$1" report="$2" need_parallel="$3" failed=0 w dom result
    sed 's|</body>|<script>document.body.setAttribute("data-height", document.documentElement.scrollHeight)</script></body>|' "$report" > "$scratch/height.html"
    { sed 's|</body>|<script>|; s|</html>||' "$report"; cat scripts/layout-check.js; echo '</script></body></html>'; } > "$scratch/check.html"
    for w in 1280 390; do
        local height
        height="$(headless --window-size="$w,900" --dump-dom "file://$scratch/height.html" 2>/dev/null | grep -o 'data-height="[0-9]*"' | grep -o '[0-9]*' || true)"
        dom="$(headless --window-size="$w,900" --dump-dom "file://$scratch/check.html" 2>/dev/null)"
        result="$(printf '%s' "$dom" | grep -o 'data-layout="[^"]*"' | sed 's/^data-layout="//; s/"$//; s/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g' || true)"
        if [ -z "$result" ]; then
            echo "scripts/screenshots.sh: $name: the layout check did not run at $w px" >&2; failed=1
        elif [ "$result" != ok ]; then
            printf '%s\n' "$result" | sed 's/@@@/\n/g' | sed "s|^|scripts/screenshots.sh: $name at $w px: |" >&2; failed=1
        else
            echo "$name at $w px: $(wc -c < "$report") bytes, ${height:-?} px tall; nothing cut off, table of contents present$(case "$dom" in *'data-parallel="yes"'*) echo ', parallel coordinates at full width' ;; esac)"
        fi
        if [ "$need_parallel" = 1 ] && case "$dom" in *'data-parallel="yes"'*) false ;; *) true ;; esac; then
            echo "scripts/screenshots.sh: $name at $w px: no parallel-coordinates chart (#parallel figure)" >&2; failed=1
        fi
    done
    return "$failed"
}

failed=0
if [ "$all" = 1 ]; then
    out="${out:-runs/screenshots}"
    mkdir -p "$out"
    for file in Sweeps/*.yaml; do
        name="$(basename "$file" .yaml)"
        [ "$name" = million-drops ] && [ "$million" = 0 ] && continue
        dir="runs/screenshots-$name"
        if grep -q '^tune:' "$file"; then
            "$bin" tune "$file" --out "$dir" --force --quiet || true   # an unmet want exits 1 and still writes its page
        else
            "$bin" run "$file" --out "$dir" --force --quiet
        fi
        report="$(cd "$dir" && pwd)/report.html"
        [ -f "$report" ] || { echo "scripts/screenshots.sh: no report at $report" >&2; failed=1; continue; }
        check "$name" "$report" 0 || failed=1
        [ "$check_only" = 1 ] && continue
        shoot "$name-1280" 1280 1500 "$report"
        shoot "$name-390" 390 1600 "$report"
        if [ "${FULL_PAGE:-}" = 1 ]; then
            shoot "$name-1280-full" 1280 12000 "$report"
            shoot "$name-390-full" 390 30000 "$report"
        fi
    done
    exit "$failed"
fi

out="${out:-docs/screenshots}"
need_parallel=0
if [ -z "$run" ]; then
    run="runs/screenshots-twin-drop"
    need_parallel=1   # the example has three swept axes: its page must show them all
    "$bin" run Sweeps/twin-drop.yaml --out "$run" --force --quiet
fi
report="$(cd "$run" && pwd)/report.html"
[ -f "$report" ] || { echo "scripts/screenshots.sh: no report at $report" >&2; exit 1; }
mkdir -p "$out"
check report "$report" "$need_parallel" || failed=1
[ "$check_only" = 1 ] && exit "$failed"
# Chromium's headless screenshot ignores a #fragment, so the views are photographed from a copy of
# the page with everything above them hidden.
sed 's|</head>|<style>main > *:not(#views){display:none}</style></head>|' "$report" > "$scratch/views.html"
shoot report-1280-top 1280 1500 "$report"
shoot report-1280-views 1280 1500 "$scratch/views.html"
shoot report-390-top 390 1600 "$report"
shoot report-390-views 390 1600 "$scratch/views.html"
if [ "${FULL_PAGE:-}" = 1 ]; then   # the whole page, to look over (large files: not for docs/)
    shoot report-1280-full 1280 12000 "$report"
    shoot report-390-full 390 30000 "$report"
fi
# The README tour's tune page: the settle search's answer, its notes and confirmation (a shorter
# window than the report's: the docs keep what a reader needs, not the whole page).
if [ -n "$bin" ]; then
    "$bin" tune Sweeps/tune-spring-settle.yaml --out runs/screenshots-tune-spring-settle --force --quiet
    tune="$(cd runs/screenshots-tune-spring-settle && pwd)/report.html"
    check tune "$tune" 0 || failed=1
    shoot tune-1280 1280 1000 "$tune"
    shoot tune-390 390 1400 "$tune"
fi
exit "$failed"
