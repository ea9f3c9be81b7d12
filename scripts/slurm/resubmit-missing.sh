#!/usr/bin/env bash
# Slurm does not retry failed array tasks. This asks `worldsweep missing` which shards have no
# finished output, resubmits just those (same SHARDS count), and a merge after them.
#   scripts/slurm/resubmit-missing.sh SWEEP_FILE OUT_DIR SHARDS [extra sbatch options...]
set -euo pipefail
file=${1:?usage: resubmit-missing.sh SWEEP_FILE OUT_DIR SHARDS [sbatch options]}
out=${2:?usage: resubmit-missing.sh SWEEP_FILE OUT_DIR SHARDS [sbatch options]}
shards=${3:?usage: resubmit-missing.sh SWEEP_FILE OUT_DIR SHARDS [sbatch options]}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
# `missing` exits 1 while shards are missing (the list is what is wanted here), 2 on bad input.
list=$("${WS_BIN:-worldsweep}" missing "$out") || [ $? -eq 1 ] || exit 2
missing=$(printf '%s\n' "$list" | paste -sd, -)
if [ -z "$missing" ]; then
    echo "no missing shards"
    exit 0
fi
export WS_FILE=$(realpath "$file") WS_OUT=$(realpath "$out") WS_SHARDS=$shards
array=$(sbatch --parsable --array="$missing" --export=ALL \
    --output="$WS_OUT/slurm-logs/shard-%a.out" "$@" "$here/sweep-array.sbatch")
merge=$(sbatch --parsable --dependency="afterany:${array%%;*}" --export=ALL \
    --output="$WS_OUT/slurm-logs/merge-%j.out" "$@" "$here/merge.sbatch")
echo "resubmitted shards $missing: array ${array%%;*} merge ${merge%%;*}"
