#!/usr/bin/env bash
# Integration test of the Slurm path on a private single-node cluster: a 4-shard array of a small
# sweep, one shard killed on purpose (kill -9), `missing` finds it, it is resubmitted alone, the
# merge runs, and the merged files must equal a single-process run byte for byte (summary.json:
# all but its `run` section, which records wall time and threads). Every daemon it starts is
# stopped by PID. Needs root (slurmd, munged); without it, it says so and skips.
#   scripts/slurm/test-slurm.sh [WORLDSWEEP_BINARY]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/slurm"

if [ "$(id -u)" -ne 0 ]; then
    echo "slurm integration test: SKIPPED (needs root to start slurmd and munged)"
    exit 0
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
    if [ "${WORLDSWEEP_NO_INSTALL:-}" = 1 ]; then
        echo "slurm integration test: SKIPPED (slurm-wlm and munge are not installed; WORLDSWEEP_NO_INSTALL=1)"
        exit 0
    fi
    echo "slurm integration test: installing slurm-wlm and munge (apt-get, system-wide)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

bin=${1:-$(cd "$root" && swift build --show-bin-path)/worldsweep}
[ -x "$bin" ] || { echo "slurm integration test: no worldsweep binary at $bin (run swift build)" >&2; exit 1; }

work=$(mktemp -d /tmp/worldsweep-slurm.XXXXXX)
chmod 755 "$work"
cleanup() {
    "$here/local-cluster.sh" stop "$work/cluster" || true
    rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/sweep.yaml" <<'YAML'
name: slurm-test
world: {bounds: [320, 568], ticks: 90}
items:
  box: {center: [160, 100], size: [50, 50]}
  ball: {center: [100, 200], size: [40, 40], shape: ellipse}
behaviors:
  fall: {type: gravity, items: [box, ball]}
  walls: {type: collision, items: [box, ball], reference_bounds: true}
  bouncy: {type: item, items: [box, ball], elasticity: 0.5}
sweep:
  parameters:
    bouncy.elasticity: {linspace: [0.1, 0.9, 6]}
    box.center.y: {values: [100, 200]}
  replicas: 2
  jitter: {ball.center.x: 3}
YAML

# The reference: one process.
"$bin" run "$work/sweep.yaml" --out "$work/single" --threads 2 --quiet

# Shard 2 is killed on purpose the first time it runs.
cat > "$work/worldsweep-killing-shard-2" <<WRAP
#!/usr/bin/env bash
if [ "\${SLURM_ARRAY_TASK_ID:-}" = 2 ] && [ "\$1" = run ] && mkdir "$work/killed-once" 2>/dev/null; then
    "$bin" "\$@" & pid=\$!
    kill -9 \$pid
    wait \$pid
    exit 137
fi
exec "$bin" "\$@"
WRAP
chmod +x "$work/worldsweep-killing-shard-2"

export SLURM_CONF
SLURM_CONF=$("$here/local-cluster.sh" start "$work/cluster")

wait_for_jobs() {
    for _ in $(seq 600); do
        [ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    echo "slurm integration test: jobs did not finish in 120 s" >&2
    squeue >&2 || true
    return 1
}

fail() { echo "slurm integration test: FAILED: $*" >&2; echo "slurm: 0 passed, 1 failed"; exit 1; }

WS_BIN="$work/worldsweep-killing-shard-2" "$here/submit.sh" "$work/sweep.yaml" "$work/out" 4 >/dev/null
wait_for_jobs || fail "first submission did not finish"
[ -d "$work/killed-once" ] || fail "shard 2 was never started"
[ ! -e "$work/out/worlds.csv" ] || fail "merge succeeded although shard 2 was missing"
rc=0; list=$("$bin" missing "$work/out") || rc=$?
[ "$rc" = 1 ] || fail "worldsweep missing exited $rc with a shard missing, expected 1"
missing=$(printf '%s\n' "$list" | paste -sd, -)
[ "$missing" = "2" ] || fail "worldsweep missing listed '$missing', expected '2'"

WS_BIN="$bin" "$here/resubmit-missing.sh" "$work/sweep.yaml" "$work/out" 4 >/dev/null
wait_for_jobs || fail "resubmission did not finish"
[ -z "$("$bin" missing "$work/out")" ] || fail "shards still missing after the resubmission"
"$bin" missing "$work/out" || fail "worldsweep missing exited non-zero with every shard done"

cmp "$work/single/worlds.csv" "$work/out/worlds.csv" || fail "worlds.csv differs from the single-process run"
python3 - "$work/single/summary.json" "$work/out/summary.json" <<'PY' || fail "summary.json differs from the single-process run"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("run", None)
sys.exit(0 if a == b else 1)
PY
echo "slurm integration test: 4-shard array, shard 2 killed and resubmitted, merged files equal a single run"
echo "slurm: 1 passed, 0 failed"
