#!/usr/bin/env bash
# Whether two worldsweep binaries write the same run folders: every file of `worldsweep run`
# (worlds.csv, points.csv, partners.csv, partner_points.csv, summary.json, report.md,
# report.html, …) compared byte for byte with `diff -r`, for each sweep given (default: every
# example in Sweeps/ but the million-world one). Only what a run measures about itself is masked
# before comparing: its wall time and rates (summary.json's wallSeconds, worldTicksPerSecond,
# engineThreadSeconds and simulationWorldTicksPerSecond, the report's "Wall time", "Throughput",
# "Simulation rate", "Whole-run rate" and "Run rate" rows, the page's "… s wall time" summary). Both binaries
# write to the same path in turn, so the command lines the files record are the same.
#
#   scripts/compare-outputs.sh OLD_BIN NEW_BIN [SWEEP.yaml ...]     exit 1 on any difference
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then echo "usage: scripts/compare-outputs.sh OLD_BIN NEW_BIN [SWEEP.yaml ...]" >&2; exit 2; fi
old="$(realpath "$1")"; new="$(realpath "$2")"; shift 2
if [ $# -eq 0 ]; then set -- $(ls Sweeps/*.yaml | grep -v million-drops); fi
tmp="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mask() {
    for f in "$1"/summary.json; do
        [ -f "$f" ] && sed -E -i 's/"(wallSeconds|worldTicksPerSecond|engineThreadSeconds|simulationWorldTicksPerSecond)":[-+0-9.eE]+/"\1":MASKED/g' "$f"
    done
    for f in "$1"/report.md "$1"/report.html; do
        [ -f "$f" ] && sed -E -i -e 's/^(\| (Wall time|Throughput|Simulation rate|Whole-run rate|Run rate) \|).*$/\1 MASKED |/' \
            -e 's#^(<tr><th>(Wall time|Throughput|Simulation rate|Whole-run rate|Run rate)</th><td>).*(</td></tr>)$#\1MASKED\3#' \
            -e 's#; [0-9.]+ s wall time</summary>#; MASKED s wall time</summary>#' "$f"
    done
    return 0
}
status=0
for sweep in "$@"; do
    name="$(basename "$sweep" .yaml)"
    for side in old new; do
        bin="$old"; [ "$side" = new ] && bin="$new"
        "$bin" run "$sweep" --out "$tmp/run/$name" --threads 2 --quiet --force >/dev/null
        mkdir -p "$tmp/$side"
        mv "$tmp/run/$name" "$tmp/$side/$name"
        mask "$tmp/$side/$name"
    done
    if diff -r "$tmp/old/$name" "$tmp/new/$name" >"$tmp/diff.txt"; then
        echo "same: $name ($(ls "$tmp/new/$name" | wc -l) files)"
    else
        echo "DIFFERENT: $name"; head -20 "$tmp/diff.txt"; status=1
    fi
done
exit $status
