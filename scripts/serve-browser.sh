#!/usr/bin/env bash
# The browser check of `worldsweep serve` (scripts/serve-browser.js in headless Chromium): a runs
# folder with a finished run, a set of shards with one missing, and a sweep and a tune running
# beside the server; the pages must follow the running sweep and the tune's convergence, show the
# tune's answer once it ends, replay a world after a slider moves, a world picked on the chart and
# the tune's answer, each animation ending where `worldsweep trace` (the command the page offers)
# ends, bit for bit. Screenshots at 1280 and 390 px go to docs/screenshots/ (serve-*.png).
#   scripts/serve-browser.sh [--bin WORLDSWEEP] [--serve WORLDSWEEP_SERVE] [--out DIR]
# Without --bin / --serve it builds both (release). Needs Chromium and Node 20 or later.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="" serve="" out="docs/screenshots"
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="$2"; shift 2 ;;
        --serve) serve="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        *) echo "scripts/serve-browser.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
command -v node >/dev/null || { echo "scripts/serve-browser.sh: needs Node 20 or later (apt-get install -y nodejs)" >&2; exit 1; }
if [ -z "$bin" ]; then swift build -c release --product worldsweep; bin="$(swift build -c release --show-bin-path)/worldsweep"; fi
if [ -z "$serve" ]; then swift build -c release --package-path Serve --product worldsweep-serve; serve="$(swift build -c release --package-path Serve --show-bin-path)/worldsweep-serve"; fi
mkdir -p "$out"
runs="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$runs" "$runs.tune.yaml"; }
trap cleanup EXIT
small=(Sweeps/twin-drop.yaml --sweep bouncy.density=1)
"$bin" run "${small[@]}" --sweep bouncy.elasticity=0.2,0.5,0.8 --sweep shove.magnitude=0,0.5,1 --out "$runs/twin-drop" --quiet
for s in 0 2; do "$bin" run "${small[@]}" --sweep bouncy.elasticity=0.2,0.8 --sweep shove.magnitude=0,1 --shard $s --of 3 --out "$runs/sharded" --quiet; done
# The live run: 8 000 worlds, 4 a chunk on one thread, so it is still running while the page watches.
"$bin" run "${small[@]}" --sweep bouncy.elasticity=linspace:0,1,80 --sweep shove.magnitude=linspace:0,1.5,100 \
    --out "$runs/live" --quiet --threads 1 --chunk-size 4 &
pids+=($!)
# The live tune: a card's first bounce maximized over elasticity and friction, 6 points × R
# replicas a generation on one thread for 30 generations, so the page sees it advance and then
# end: R = 500 on a release build, 50 on a debug one (scripts/test.sh's), about ten times slower.
replicas=500
case "$bin" in */debug/*) replicas=50 ;; esac
cat > "$runs.tune.yaml" <<YAML
name: tune-live
world: {bounds: [320, 568], duration: 30}
items:
  card: {center: [160, 100], size: [60, 40]}
behaviors:
  fall: {type: gravity, items: [card]}
  floor: {type: collision, items: [card], mode: boundaries, reference_bounds: true}
  bouncy: {type: item, items: [card], elasticity: 0.5, friction: 0.5, allows_rotation: false}
sweep: {replicas: $replicas, seed: 3, jitter: {card.center: [0, 4]}}
tune:
  parameters:
    bouncy.elasticity: {min: 0.3, max: 0.98}
    bouncy.friction: {min: 0, max: 1}
  want:
    card.bounce1: maximize
  population: 6
  budget: $((replicas * 6 * 30))
  seed: 2
YAML
"$bin" tune "$runs.tune.yaml" --out "$runs/tune-live" --quiet --threads 1 > /dev/null &
pids+=($!)
"$serve" "$runs" --port 0 > "$runs.serve-out" 2> "$runs.serve-err" &
pids+=($!)
for _ in $(seq 50); do grep -q http "$runs.serve-out" 2>/dev/null && break; sleep 0.2; done
address="$(grep -o 'http://[^ ]*' "$runs.serve-out")"
result="$(node --experimental-websocket scripts/serve-browser.js "$address" live twin-drop tune-live "$out")"
rm -f "$runs.serve-out" "$runs.serve-err"
# Each replay's final rows and last drawn frame against the offered command's trace.
python3 - "$bin" "$result" "$runs" <<'PY'
import json, shlex, subprocess, sys
bin, result, runs = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
for pane in result["replays"]:
    words = shlex.split(pane["command"])
    trace = subprocess.run([bin] + words[1:], capture_output=True, text=True, check=True).stdout.strip().split("\n")
    last = [",".join(r.split(",")[2:]) for r in trace[-len(pane["final"]):]]
    assert pane["final"] == last, (pane["command"], pane["final"], last)
    drawn = dict(part.split(" ", 1) for part in pane["drawn"].removeprefix("drawn at the end: ").split("; "))
    for row in last:
        item, x, y, angle = row.split(",")[:4]
        assert [float(v) for v in drawn[item].split(",")] == [float(x), float(y), float(angle)], (item, drawn[item], row)
    print(f"serve-browser: {pane['label']}: the animation ends where `{pane['command']}` ends, bit for bit")
print(f"serve-browser: the live run advanced {' -> '.join(result['live'])} on the page")
tune = result["tune"]
summary = json.load(open(f"{runs}/tune-live/tune.json"))
assert tune["answer"] == summary["answer"], (tune["answer"], summary["answer"])
assert tune["generations"] == summary["generations"] == len(summary["convergence"]), (tune["generations"], summary["generations"])
best = summary["best"]
assert result["replays"][2]["command"].endswith(f"--world {best['point'] * best['replicas']}"), result["replays"][2]["command"]
print(f"serve-browser: the tune's convergence grew {' -> '.join(map(str, tune['seen']))} generations on its page while it ran; "
      f"it ended with tune.json's answer ({tune['generations']} generations) and links to {', '.join(tune['files'])}")
PY
