#!/usr/bin/env bash
# Interleaved A/B timing of worldsweep binaries: each round runs every binary in turn on the same
# bench, so a drift in the machine's speed (others' builds, clock changes) hits them alike. Prints
# each round's world-ticks/s (itself the median of bench's three runs), then per binary the median,
# and per binary after the first its per-round ratios to the first and their median.
#
#   scripts/bench-ab.sh [--rounds N] [--worlds N] [--threads T] [--file FILE] NAME=BIN [NAME=BIN ...]
#
# A binary may carry environment settings: `avx2=/path/worldsweep` and
# `portable=WORLDSWEEP_CPU=portable:/path/worldsweep` time the two engine codes of one binary.
# Defaults: 5 rounds, Sweeps/twin-drop.yaml, 3072 worlds, 1 thread; batched-simd, simd integrator.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5; worlds=3072; threads=1; file=Sweeps/twin-drop.yaml
names=(); bins=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --worlds) worlds="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --file) file="$2"; shift 2 ;;
        *=*) names+=("${1%%=*}"); bins+=("${1#*=}"); shift ;;
        *) echo "bench-ab.sh: error: expected NAME=BIN, got '$1'" >&2; exit 2 ;;
    esac
done
[ "${#bins[@]}" -ge 1 ] || { echo "usage: scripts/bench-ab.sh [--rounds N] [--worlds N] [--threads T] [--file FILE] NAME=BIN ..." >&2; exit 2; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%FT%TZ) $file, $worlds worlds, $threads thread(s), $rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
for r in $(seq 1 "$rounds"); do
    line="round $r:"
    for k in "${!bins[@]}"; do
        spec="${bins[$k]}"; envs=()
        if [[ "$spec" == *:* ]]; then envs=(${spec%%:*}); spec="${spec#*:}"; fi
        env "${envs[@]}" "$spec" bench "$file" --worlds "$worlds" --threads "$threads" --engines batched-simd \
            --integrator simd --no-report --json >"$tmp/out.json"
        v="$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["engines"][0]["worldTicksPerSecond"]))' "$tmp/out.json")"
        echo "$v" >>"$tmp/${names[$k]}"
        line+=" ${names[$k]} $v"
    done
    echo "$line"
done
python3 - "$tmp" "${names[@]}" <<'PY'
import statistics, sys
d, names = sys.argv[1], sys.argv[2:]
runs = {n: [float(x) for x in open(f"{d}/{n}")] for n in names}
for n in names:
    print(f"{n}: median {statistics.median(runs[n]):,.0f} world-ticks/s (min {min(runs[n]):,.0f}, max {max(runs[n]):,.0f})")
base = names[0]
for n in names[1:]:
    ratios = [b / a for a, b in zip(runs[base], runs[n])]
    print(f"{n} / {base}: per round {min(ratios):.2f}-{max(ratios):.2f}, median {statistics.median(ratios):.2f}x")
PY
