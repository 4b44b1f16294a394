#!/usr/bin/env bash
# A real single-node Slurm (Debian's slurm-wlm 22.05) for tests, confined to one directory:
#   slurm-harness.sh start DIR   write the config, make 4 fake GPU device nodes, start munged, slurmctld,
#                                slurmd and slurmrestd (JWT); prints KEY=VALUE lines (ports, conf, token)
#   slurm-harness.sh stop DIR    stop what start started (by the pid files in DIR)
#   slurm-harness.sh kill-slurmd DIR / start-slurmd DIR   for fault tests
#   slurm-harness.sh stop-slurmrestd DIR / start-slurmrestd DIR   Slurm's REST API down and back (same port)
# Ports are picked free by the caller (SLURMCTLD_PORT, SLURMD_PORT, SLURMRESTD_PORT) or default here.
# munged gets its own socket in DIR, so a machine's own munge/Slurm (if any) is left alone.
set -euo pipefail
cmd=${1:?start|stop|kill-slurmd|start-slurmd}; dir=${2:?directory}
mkdir -p "$dir"; dir=$(cd "$dir" && pwd)
SBIN=/usr/sbin

free_port() { python3 - 2>/dev/null <<'PY' || shuf -i 20000-40000 -n 1
import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])
PY
}

wait_for() { # wait_for SECONDS description command...
  local limit=$1 what=$2; shift 2
  for _ in $(seq 1 $((limit * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "slurm-harness: $what did not come up in ${limit}s; logs in $dir/log" >&2; return 1
}

start_slurmd() {
  # daemons must not keep the caller's stdout open (the Java harness reads it to the end)
  # SLURM_CONF in slurmd's environment is inherited by its slurmstepd processes: how kill-slurmd finds this
  # cluster's job steps and leaves any other Slurm's alone
  SLURM_CONF="$dir/etc/slurm.conf" $SBIN/slurmd -f "$dir/etc/slurm.conf" -N localhost >>"$dir/log/daemons.out" 2>&1 </dev/null
  wait_for 20 "slurmd" sh -c "SLURM_CONF='$dir/etc/slurm.conf' sinfo -h -N -o %T | grep -Eq '^(idle|mixed|allocated)'"
}

our_stepds() { # the slurmstepd processes of this cluster
  local p
  for p in $(pgrep -x slurmstepd || true); do
    tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "SLURM_CONF=$dir/etc/slurm.conf" && echo "$p"
  done
  return 0
}

stop_pid() { # stop_pid FILE: TERM, then KILL after 5 s
  local f=$1 pid; [ -s "$f" ] || return 0; pid=$(cat "$f")
  kill "$pid" 2>/dev/null || { rm -f "$f"; return 0; }
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true; rm -f "$f"
}

start_slurmrestd() {
  local rest; rest=$(cat "$dir/run/slurmrestd.port")
  export SLURM_CONF="$dir/etc/slurm.conf"
  # slurmrestd must not run as root: it drops to nobody once its socket is open; SLURM_JWT=daemon makes it
  # speak to slurmctld with the callers' tokens only (no munge).
  SLURM_JWT=daemon setsid $SBIN/slurmrestd -f "$SLURM_CONF" -a rest_auth/jwt -s openapi/v0.0.38 -u nobody -g nogroup \
    "127.0.0.1:$rest" >>"$dir/log/slurmrestd.log" 2>&1 < /dev/null &
  echo $! > "$dir/run/slurmrestd.pid"
  wait_for 20 "slurmrestd" bash -c "exec 3<>/dev/tcp/127.0.0.1/$rest"
}

case "$cmd" in
start)
  for b in munged slurmctld slurmd slurmrestd; do
    [ -x "$SBIN/$b" ] || { echo "slurm-harness: $SBIN/$b missing (apt-get install slurm-wlm slurmrestd munge)" >&2; exit 3; }
  done
  ctld=${SLURMCTLD_PORT:-$(free_port)}; slurmd_port=${SLURMD_PORT:-$(free_port)}; rest=${SLURMRESTD_PORT:-$(free_port)}
  mkdir -p "$dir"/{etc,run,log,state,spool/slurmd-localhost,dev,munge,jobs}
  chmod 755 "$dir" "$dir/jobs"; chmod 1777 "$dir/jobs"
  # Fake GPUs: Slurm 22.05 drains a node whose gres has no File=, so give it real (unused) character devices
  # with NVIDIA's major number; jobs then get CUDA_VISIBLE_DEVICES as on a real GPU node.
  for i in 0 1 2 3; do [ -e "$dir/dev/gpu$i" ] || mknod "$dir/dev/gpu$i" c 195 "$i"; done
  # munge: own key, socket and pid in DIR, run as user munge (munged refuses root).
  chown munge: "$dir/munge"; chmod 711 "$dir/munge"
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chown munge: "$dir/munge/munge.key"; chmod 400 "$dir/munge/munge.key"
  runuser -u munge -- $SBIN/munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force \
    >>"$dir/log/daemons.out" 2>&1 </dev/null
  cp "$dir/munge/munged.pid" "$dir/run/munged.pid"
  # JWT key for slurmrestd's tokens (scontrol token), read by slurmctld only.
  dd if=/dev/urandom of="$dir/etc/jwt.key" bs=32 count=1 status=none; chmod 600 "$dir/etc/jwt.key"
  cat > "$dir/etc/slurm.conf" <<CONF
ClusterName=continuum-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
# cred_expire is also how long a requeued job waits before it may start again (default 120 s)
AuthInfo=socket=$dir/munge/munge.socket,cred_expire=10
CredType=cred/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$dir/etc/jwt.key
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/slurmd-%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
MpiDefault=none
SwitchType=switch/none
# Quick reactions for tests: a lost slurmd is noticed in 10 s, it comes back by itself, and a requeued job
# may start again at once; the scheduler runs every second.
SlurmdTimeout=10
ReturnToService=2
JobRequeue=1
MinJobAge=300
KillWait=5
SchedulerParameters=sched_interval=1,bf_interval=1,defer_batch
SlurmdParameters=config_overrides
# 8 CPUs and 4 GPUs whatever the machine has (config_overrides): jobs are limited by GPUs, not this host's cores.
NodeName=localhost NodeAddr=127.0.0.1 CPUs=8 RealMemory=4096 Gres=gpu:4 State=UNKNOWN
# Two partitions over the same node, so a job can move between partitions.
PartitionName=gpu-a Nodes=localhost Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu-b Nodes=localhost MaxTime=INFINITE State=UP
CONF
  cat > "$dir/etc/gres.conf" <<CONF
NodeName=localhost Name=gpu File=$dir/dev/gpu[0-3]
CONF
  # Processes are tracked through /proc (proctrack/linuxproc, task/none): containers rarely delegate cgroups, but
  # slurmd 22.05 still loads a cgroup plugin at start, so let it find one without asking systemd.
  cat > "$dir/etc/cgroup.conf" <<CONF
CgroupPlugin=autodetect
IgnoreSystemd=yes
CONF
  export SLURM_CONF="$dir/etc/slurm.conf"
  $SBIN/slurmctld -f "$SLURM_CONF" >>"$dir/log/daemons.out" 2>&1 </dev/null
  wait_for 20 "slurmctld" scontrol ping
  start_slurmd
  echo "$rest" > "$dir/run/slurmrestd.port"
  start_slurmrestd
  token=$(scontrol token username=root lifespan=86400 | sed -n 's/^SLURM_JWT=//p')
  echo "$token" > "$dir/etc/token"; chmod 600 "$dir/etc/token"
  cat <<OUT
SLURM_CONF=$SLURM_CONF
SLURMRESTD_URL=http://127.0.0.1:$rest
SLURM_JWT_USER=root
SLURM_JWT_FILE=$dir/etc/token
JOBS_DIR=$dir/jobs
OUT
  ;;
stop)
  stop_pid "$dir/run/slurmrestd.pid"; stop_pid "$dir/run/slurmd.pid"; stop_pid "$dir/run/slurmctld.pid"
  # job steps left by a killed slurmd
  for p in $(our_stepds); do kill -9 "$p" 2>/dev/null || true; done
  stop_pid "$dir/run/munged.pid"
  ;;
kill-slurmd) # as a node crash looks to slurmctld: slurmd gone, its job steps gone with it
  pid=$(cat "$dir/run/slurmd.pid"); kill -9 "$pid"; rm -f "$dir/run/slurmd.pid"
  for p in $(our_stepds); do kill -9 "$p" 2>/dev/null || true; done
  ;;
start-slurmd) start_slurmd ;;
stop-slurmrestd) stop_pid "$dir/run/slurmrestd.pid" ;;
start-slurmrestd) start_slurmrestd ;;
*) echo "unknown command $cmd" >&2; exit 2 ;;
esac
