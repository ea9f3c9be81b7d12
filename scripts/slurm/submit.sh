#!/usr/bin/env bash
# Submits a sweep as a Slurm job array of SHARDS tasks plus a dependent merge job.
#   scripts/slurm/submit.sh SWEEP_FILE OUT_DIR SHARDS [extra sbatch options...]
# OUT_DIR must be on storage every node sees. Keep shards coarse: arrays default to at most 1001
# tasks and Slurm starts about one task per second, so aim for minutes of work per shard.
# Prints the array and merge job ids.
set -euo pipefail
file=${1:?usage: submit.sh SWEEP_FILE OUT_DIR SHARDS [sbatch options]}
out=${2:?usage: submit.sh SWEEP_FILE OUT_DIR SHARDS [sbatch options]}
shards=${3:?usage: submit.sh SWEEP_FILE OUT_DIR SHARDS [sbatch options]}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/slurm-logs"
export WS_FILE=$(realpath "$file") WS_OUT=$(realpath "$out") WS_SHARDS=$shards
array=$(sbatch --parsable --array="0-$((shards - 1))" --export=ALL \
    --output="$WS_OUT/slurm-logs/shard-%a.out" "$@" "$here/sweep-array.sbatch")
merge=$(sbatch --parsable --dependency="afterany:${array%%;*}" --export=ALL \
    --output="$WS_OUT/slurm-logs/merge-%j.out" "$@" "$here/merge.sbatch")
echo "array ${array%%;*} merge ${merge%%;*}"
