#!/usr/bin/env bash
# Simulator speed by trace length (issue 19 item 8): process start, per-policy simulation time, process wall
# and CPU, for N synthetic jobs on 6,504 GPUs (813 nodes x 8), and the ratio to a Python peer's seconds per policy.
#   bench/scripts/sim-speed.sh [--jobs 20000,200000,1000000] [--policies fifo,sjf,srtf,las,qssf]
#                              [--peer-seconds S --peer-label TEXT] [--aot]
# --peer-seconds: the peer's seconds per policy on the 20k-job input (measured with bench/scripts/sim-peer-pai.py,
#   or a quoted figure: say which in --peer-label). --aot: record a JDK 25 AOT cache once, then use it.
# Needs the simulator jar: mvn -B -q -o -pl placement/simulator -am package -DskipTests (or SIM_JAR=path). Prints figures, asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs_list=20000,200000,1000000
policies=fifo,sjf,srtf,las,qssf
peer_seconds=""
peer_label="peer"
aot=""
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs_list=$2; shift 2 ;;
    --policies) policies=$2; shift 2 ;;
    --peer-seconds) peer_seconds=$2; shift 2 ;;
    --peer-label) peer_label=$2; shift 2 ;;
    --aot) aot=1; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
jar=${SIM_JAR:-$(ls placement/simulator/target/continuum-placement-simulator-*-simulator.jar | head -1)}
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
cluster=synthetic:nodes=813,gpus=8,rack=32
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=()
if [ -n "$aot" ]; then
  "$java" -XX:AOTCacheOutput="$work/sim.aot" -jar "$jar" --synthetic 20000 --cluster $cluster --policy "$policies" \
    --threads 1 --quiet --out "$work/train" >/dev/null 2>&1
  flags=(-XX:AOTCache="$work/sim.aot")
fi
# wall and CPU (user+sys) of one whole process, from the kernel's accounting
timed() { /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >"$work/out" 2>&1; read -r w u s <"$work/time"; \
  cpu=$(echo "$u + $s" | bc); echo "$w $cpu"; }
echo "java: $("$java" -version 2>&1 | head -1); AOT cache: ${aot:-no}; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
read -r w c < <(timed "$java" "${flags[@]}" -jar "$jar" --help)
echo "process start (--help): ${w} s wall, ${c} s CPU"
IFS=, read -ra sizes <<<"$jobs_list"
for n in "${sizes[@]}"; do
  read -r w c < <(timed "$java" "${flags[@]}" -jar "$jar" --synthetic "$n" --cluster $cluster --policy "$policies" \
    --threads 1 --quiet --out "$work/r$n")
  npol=$(echo "$policies" | tr ',' '\n' | wc -l)
  echo
  echo "== $n jobs, $npol policies in one process: ${w} s wall, ${c} s CPU (load $(cut -d' ' -f1 /proc/loadavg))"
  peer=""
  if [ "$n" = 20000 ]; then peer=$peer_seconds; fi  # the peer figure is for the 20k-job input only
  printf '%-8s %12s %12s %16s %16s\n' policy "sim wall" "sim CPU" "x peer (wall)" "x peer (CPU)"
  # the table's last two columns: each policy's simulation alone (trace read once before), wall and thread CPU
  awk -v peer="$peer" -v pol="$policies" 'function x(ms) { return peer == "" ? "-" : sprintf("%.0fx", peer * 1000 / (ms < 1 ? 1 : ms)) }
    BEGIN { n = split(pol, p, ","); for (i = 1; i <= n; i++) want[p[i]] = 1 }
    ($1 in want) && $(NF) == "ms" { w = $(NF-3); c = $(NF-1); printf "%-8s %9d ms %9d ms %16s %16s\n", $1, w, c, x(w), x(c) }' "$work/out"
  if [ -n "$peer" ]; then
    echo "per process: $(echo "scale=1; $peer_seconds * $npol / $w" | bc)x by wall, $(echo "scale=1; $peer_seconds * $npol / $c" | bc)x by CPU ($npol policies at $peer_seconds s each for the $peer_label)"
  fi
done
