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
# there on two cores, and results do not depend on the build, the threads or the chunk size.
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
actual="$tmp/hashes.txt"
hash() { sha256sum "$1" | cut -d' ' -f1; }
for file in Sweeps/*.yaml; do
    name="$(basename "$file" .yaml)"
    "$WORLDSWEEP_BIN" run "$file" --out "$tmp/$name" --quiet >/dev/null
    "$WORLDSWEEP_BIN" trace "$file" >"$tmp/$name.trace.csv"
    "$WORLDSWEEP_BIN" trace "$file" --events >"$tmp/$name.events.csv"
    echo "$name/worlds.csv $(hash "$tmp/$name/worlds.csv")" >>"$actual"
    echo "$name/trace.csv $(hash "$tmp/$name.trace.csv")" >>"$actual"
    echo "$name/events.csv $(hash "$tmp/$name.events.csv")" >>"$actual"
done
if [ "$mode" = update ]; then
    cp "$actual" "$pins"
    echo "golden: pinned $(wc -l <"$pins") hashes in $pins"
    exit 0
fi
passed=0; failed=0
while read -r what want; do
    got="$(awk -v w="$what" '$1 == w { print $2 }' "$actual")"
    if [ "$got" = "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "golden: $what changed (pinned ${want:0:12}…, now ${got:0:12}…)" >&2
    fi
done <"$pins"
# A sweep added to Sweeps/ without a pin is a failure too: every example is pinned.
while read -r what _; do
    grep -q "^$what " "$pins" || { failed=$((failed + 1)); echo "golden: $what has no pin (scripts/golden.sh --update)" >&2; }
done <"$actual"
echo "golden: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
