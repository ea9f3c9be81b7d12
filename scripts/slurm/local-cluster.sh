#!/usr/bin/env bash
# A private single-node Slurm cluster for tests, without systemd: `start DIR` launches munged,
# slurmctld and slurmd under DIR (config, key, socket, state, logs) and prints the SLURM_CONF to
# export; `stop DIR` stops exactly the daemons it started, by PID. Needs root (slurmd does).
set -euo pipefail

cmd=${1:?usage: local-cluster.sh start|stop DIR}
dir=$(realpath -m "${2:?usage: local-cluster.sh start|stop DIR}")

stop() {
    for name in slurmd slurmctld munged; do
        local pidfile="$dir/$name.pid"
        [ -f "$pidfile" ] || continue
        local pid
        pid=$(cat "$pidfile")
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -9 "$pid" 2>/dev/null || true
        fi
        rm -f "$pidfile"
    done
}

start() {
    mkdir -p "$dir"/{munge,state,spool,log}
    # munge: a private key and socket, owned by the munge user as munged insists.
    chown munge:munge "$dir/munge"
    chmod 0755 "$dir/munge"
    [ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null
    chown munge:munge "$dir/munge/munge.key"
    chmod 0600 "$dir/munge/munge.key"
    runuser -u munge -- munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
    for _ in $(seq 50); do [ -s "$dir/munge/munged.pid" ] && break; sleep 0.1; done
    cp "$dir/munge/munged.pid" "$dir/munged.pid"

    local cpus
    cpus=$(nproc)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=worldsweep-test
SlurmctldHost=localhost
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=${WS_SLURMCTLD_PORT:-16817}
SlurmdPort=${WS_SLURMD_PORT:-16818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=localhost CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$dir/slurm.conf"
    slurmd -f "$dir/slurm.conf" -N localhost
    # Wait until the node takes jobs.
    for _ in $(seq 100); do
        if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
            echo "$dir/slurm.conf"
            return 0
        fi
        sleep 0.2
    done
    echo "local-cluster: the node did not come up; see $dir/log" >&2
    stop
    return 1
}

case "$cmd" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: local-cluster.sh start|stop DIR" >&2; exit 2 ;;
esac
