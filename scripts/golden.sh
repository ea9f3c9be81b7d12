#!/usr/bin/env bash
# Golden outputs: pins the SHA-256 of worlds.csv for every sweep in Sweeps/, and of the state and
# event traces of each sweep's first world, so that a change to any bit of any result shows.
# Box2D v3 pins its determinism the same way (test/test_determinism.c).
#
#   scripts/golden.sh            check against Tests/Golden/hashes.txt (exit 1 on any difference)
#   scripts/golden.sh --update   rewrite the pins; commit them with the change that moved them,
#                                saying why the results changed
#
# Uses the release build (WORLDSWEEP_BIN overrides): the million-world sweep takes about a minute
# there on two cores, and results do not depend on the build, the threads or the chunk size. Runs
# once per engine code the machine has (WORLDSWEEP_CPU=portable, and avx2 where the CPU has it).
set -euo pipefail
cd "$(dirname "$0")/.."
pins=Tests/Golden/hashes.txt
mode=check
case "${1:-}" in
    --update) mode=update ;;
    "") ;;
    *) echo "usage: scripts/golden.sh [--update]" >&2; exit 2 ;;
esac
if [ -z "${WORLDSWEEP_BIN:-}" ]; then
    swift build -c release --product worldsweep >/dev/null
    WORLDSWEEP_BIN="$(swift build -c release --show-bin-path)/worldsweep"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
hash() { sha256sum "$1" | cut -d' ' -f1; }
# Every engine code this machine runs (Package.swift compiles the engine twice): portable always,
# avx2 where the CPU has it. Both must give the pinned bits.
codes=(portable)
WORLDSWEEP_CPU=avx2 "$WORLDSWEEP_BIN" --version >/dev/null 2>&1 && codes+=(avx2)
for code in "${codes[@]}"; do
    out="$tmp/$code"; mkdir -p "$out"
    for file in Sweeps/*.yaml; do
        name="$(basename "$file" .yaml)"
        WORLDSWEEP_CPU=$code "$WORLDSWEEP_BIN" run "$file" --out "$out/$name" --quiet >/dev/null
        WORLDSWEEP_CPU=$code "$WORLDSWEEP_BIN" trace "$file" >"$out/$name.trace.csv"
        WORLDSWEEP_CPU=$code "$WORLDSWEEP_BIN" trace "$file" --events >"$out/$name.events.csv"
        echo "$name/worlds.csv $(hash "$out/$name/worlds.csv")" >>"$out/hashes.txt"
        echo "$name/trace.csv $(hash "$out/$name.trace.csv")" >>"$out/hashes.txt"
        echo "$name/events.csv $(hash "$out/$name.events.csv")" >>"$out/hashes.txt"
    done
done
if [ "$mode" = update ]; then
    if [ "${#codes[@]}" -gt 1 ] && ! cmp -s "$tmp/portable/hashes.txt" "$tmp/avx2/hashes.txt"; then
        echo "golden: the portable and avx2 engine codes disagree; nothing pinned" >&2
        diff "$tmp/portable/hashes.txt" "$tmp/avx2/hashes.txt" >&2 || true
        exit 1
    fi
    cp "$tmp/portable/hashes.txt" "$pins"
    echo "golden: pinned $(wc -l <"$pins") hashes in $pins (engine codes: ${codes[*]})"
    exit 0
fi
passed=0; failed=0
for code in "${codes[@]}"; do
    actual="$tmp/$code/hashes.txt"
    while read -r what want; do
        got="$(awk -v w="$what" '$1 == w { print $2 }' "$actual")"
        if [ "$got" = "$want" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "golden: $what changed on the $code engine code (pinned ${want:0:12}…, now ${got:0:12}…)" >&2
        fi
    done <"$pins"
    # A sweep added to Sweeps/ without a pin is a failure too: every example is pinned.
    while read -r what _; do
        grep -q "^$what " "$pins" || { failed=$((failed + 1)); echo "golden: $what has no pin (scripts/golden.sh --update)" >&2; }
    done <"$actual"
done
echo "golden: $passed passed, $failed failed (engine codes: ${codes[*]})"
[ "$failed" -eq 0 ]
