#!/usr/bin/env bash
# Sets up the machine and runs every test: the Slurm integration test (a private single-node
# cluster; skipped with a message when not root), the golden outputs (every example sweep's
# worlds.csv and first-world traces, bit for bit, from the release build), the pandas/polars
# reads of a run's CSV files (skipped with a message without pandas), the fuzz suite (300 seeded
# cases of mutated sweep files and command lines: no crash, hang or raw message; about half a
# minute), then the unit and command tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build
scripts/slurm/test-slurm.sh "$(swift build --show-bin-path)/worldsweep"
scripts/golden.sh
# pandas from PyPI when missing, so the check runs for real (it says so and skips if that fails).
python3 -c 'import pandas' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check pandas \
    || echo "test.sh: could not install pandas; check-pandas will skip"
WORLDSWEEP_BIN="$(swift build -c release --show-bin-path)/worldsweep" scripts/check-pandas.sh
python3 scripts/fuzz/fuzz.py --bin "$(swift build --show-bin-path)/worldsweep" --cases 300 --seed 1
swift test
