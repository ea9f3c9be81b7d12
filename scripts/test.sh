#!/usr/bin/env bash
# Sets up the machine and runs every test: the Slurm integration test (a private single-node
# cluster; skipped with a message when not root), then the unit and command tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build
scripts/slurm/test-slurm.sh "$(swift build --show-bin-path)/worldsweep"
swift test
