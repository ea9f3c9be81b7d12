#!/usr/bin/env bash
# Interleaved A/B timing of worldsweep binaries: each round runs every binary in turn on the same
# bench, so a drift in the machine's speed (others' builds, clock changes) hits them alike. Prints
# each round's world-ticks/s (itself the median of bench's three runs), then per binary the median,
# and per binary after the first its per-round ratios to the first and their median.
#
#   scripts/bench-ab.sh [--rounds N] [--worlds N] [--threads T] [--file FILE] [--engine E] [--cpu] NAME=BIN [NAME=BIN ...]
#
# A binary may carry environment settings: `avx2=/path/worldsweep` and
# `portable=WORLDSWEEP_CPU=portable:/path/worldsweep` time the two engine codes of one binary.
# Defaults: 5 rounds, Sweeps/twin-drop.yaml, 3072 worlds, 1 thread; batched-simd, simd integrator
# (--engine single times the single-world engine instead).
#
# --cpu times each binary by the user CPU seconds of its whole `bench` process instead (GNU time's
# %U, less that of the same bench with 8 worlds: start-up and the integrators' own bench),
# reported as world-ticks per CPU second: on a machine others are loading, wall time spreads
# by ±25 % and more, but the CPU time a process is given to run its own work much less (rounds
# within 2–4 %). Its ratios agree with quiet wall-time ones (a3b42e3 against 0182019: 1.93× by
# CPU time under a load of 6, 1.94× by wall time on a quiet machine). With --threads 2 it sums
# both threads' time, so it measures work, not how well the threads overlap.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=5; worlds=3072; threads=1; file=Sweeps/twin-drop.yaml; cpu=0; engine=batched-simd
names=(); bins=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --worlds) worlds="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --file) file="$2"; shift 2 ;;
        --engine) engine="$2"; shift 2 ;;
        --cpu) cpu=1; shift ;;
        *=*) names+=("${1%%=*}"); bins+=("${1#*=}"); shift ;;
        *) echo "bench-ab.sh: error: expected NAME=BIN, got '$1'" >&2; exit 2 ;;
    esac
done
[ "${#bins[@]}" -ge 1 ] || { echo "usage: scripts/bench-ab.sh [--rounds N] [--worlds N] [--threads T] [--file FILE] [--engine E] [--cpu] NAME=BIN ..." >&2; exit 2; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
[ "$cpu" = 0 ] || command -v /usr/bin/time >/dev/null || { echo "bench-ab.sh: error: --cpu needs GNU time (/usr/bin/time; apt-get install time)" >&2; exit 2; }
echo "# $(date -u +%FT%TZ) $file, $engine, $worlds worlds, $threads thread(s), $rounds rounds$([ "$cpu" = 1 ] && echo ', by CPU time'); load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo ?)"
for r in $(seq 1 "$rounds"); do
    line="round $r:"
    for k in "${!bins[@]}"; do
        spec="${bins[$k]}"; envs=()
        if [[ "$spec" == *:* ]]; then envs=(${spec%%:*}); spec="${spec#*:}"; fi
        if [ "$cpu" = 1 ]; then
            # bench runs the sweep `runs` times, plus its start and the integrators' own bench: the
            # CPU time of the same bench with 8 worlds stands for the latter and is taken off.
            /usr/bin/time -f '%U' -o "$tmp/cpu" env "${envs[@]}" "$spec" bench "$file" --worlds "$worlds" --threads "$threads" \
                --engines "$engine" --integrator simd --no-report --json >"$tmp/out.json"
            /usr/bin/time -f '%U' -o "$tmp/cpu0" env "${envs[@]}" "$spec" bench "$file" --worlds 8 --threads "$threads" \
                --engines "$engine" --integrator simd --no-report --json >/dev/null
            v="$(python3 -c 'import json,sys
e = json.load(open(sys.argv[1]))["engines"][0]
cpu = [float(open(f).read().split()[-1]) for f in sys.argv[2:4]]
print(round(e["runs"] * e["worldTicksPerSecond"] * e["seconds"] / (cpu[0] - cpu[1])))' "$tmp/out.json" "$tmp/cpu" "$tmp/cpu0")"
        else
            env "${envs[@]}" "$spec" bench "$file" --worlds "$worlds" --threads "$threads" --engines "$engine" \
                --integrator simd --no-report --json >"$tmp/out.json"
            v="$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["engines"][0]["worldTicksPerSecond"]))' "$tmp/out.json")"
        fi
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
