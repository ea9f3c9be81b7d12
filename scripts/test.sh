#!/usr/bin/env bash
# Sets up the machine and runs every test: the Slurm integration test (a private single-node
# cluster; skipped with a message when not root), the golden outputs (every example sweep's
# worlds.csv and first-world traces, bit for bit, from the release build), the pandas/polars
# reads of a run's CSV files (skipped with a message without pandas), then the unit and command
# tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build
scripts/slurm/test-slurm.sh "$(swift build --show-bin-path)/worldsweep"
scripts/golden.sh
WORLDSWEEP_BIN="$(swift build -c release --show-bin-path)/worldsweep" scripts/check-pandas.sh
swift test
