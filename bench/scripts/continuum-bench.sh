#!/usr/bin/env bash
# The emulated continuum (docs/benchmarks.md, "Planner: emulated continuum"): two gateways behind real, shaped
# links plus a datacenter pool, a real broker, real ONNX Runtime; placement policies compared, then the same jobs in
# the simulator. Prints numbers, asserts nothing. Needs root (network namespaces, tc), iproute2, mosquitto, python3.
#
#   bench/scripts/continuum-bench.sh [JOBS=400] [RATE=8] [SLO_MS=1000] [NO_BUILD=1] [CHOOSE_BY=mean] [BENCH_JAR=path]
#
# CHOOSE_BY: what the planner ranks sites by — mean, or a learnt quantile p50 … p99 (the planner's default, mean;
#            continuum.placement.inference.choose-by in the service).
# BENCH_JAR: another build of the bench's runner jar (e.g. a copy kept from before a change, for A/B runs in one
#            sitting); the gateways always run this checkout's edge-gateway runner jar.
#
# Network: namespace c13-fast (gw-fast) behind veth c13-fast-h/-n, token bucket (tc tbf) at 1 Gbit/s each way;
#          namespace c13-slow (gw-slow) behind veth c13-slow-h/-n, tbf at 10 Mbit/s each way;
#          dc-pool and the driver in the root namespace. Everything is removed on exit.
#          (This kernel has no sch_netem, so links are rate-limited but get no added propagation delay.)
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH
for kv in "$@"; do export "${kv?}"; done
JOBS=${JOBS:-400} RATE=${RATE:-8} SLO_MS=${SLO_MS:-1000} PORT=${PORT:-18833} CHOOSE_BY=${CHOOSE_BY:-mean}
EDGE_CPU=${EDGE_CPU:-0.1}   # CPUs each edge gateway may use (cgroup v1 cpu quota): an edge device is weaker
WORK=$(mktemp -d /tmp/continuum-bench.XXXXXX)

if [[ -z "${NO_BUILD:-}" ]]; then
  mvn -B -q -o -pl bench,edge-gateway -am package -DskipTests
fi
MODEL=edge-gateway/target/npm-models/package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx
[[ -f $MODEL ]] || { echo "the OCR model is not in the build ($MODEL): build edge-gateway with network once"; exit 2; }

BROKER_PID=""
cleanup() {
  [[ -n $BROKER_PID ]] && kill "$BROKER_PID" 2>/dev/null || true
  for n in fast slow; do
    ip netns pids "c13-$n" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip link del "c13-$n-h" 2>/dev/null || true
    ip netns del "c13-$n" 2>/dev/null || true
  done
  for g in gw-fast gw-slow; do
    [[ -d /sys/fs/cgroup/cpu/c13-$g ]] && rmdir "/sys/fs/cgroup/cpu/c13-$g" 2>/dev/null || true
  done
}
trap cleanup EXIT
cleanup

# name, subnet, rate
link() {
  local n=$1 net=$2 rate=$3
  ip netns add "c13-$n"
  ip link add "c13-$n-h" type veth peer name "c13-$n-n"
  ip link set "c13-$n-n" netns "c13-$n"
  ip addr add "$net.1/24" dev "c13-$n-h" && ip link set "c13-$n-h" up
  ip netns exec "c13-$n" ip addr add "$net.2/24" dev "c13-$n-n"
  ip netns exec "c13-$n" ip link set "c13-$n-n" up
  ip netns exec "c13-$n" ip link set lo up
  # both directions: what leaves the gateway (its inputs, its results) and what reaches it (its tasks)
  # a deep queue (up to 10 s of traffic) so a burst waits instead of being dropped
  tc qdisc add dev "c13-$n-h" root tbf rate "$rate" burst 64kb latency 10s
  ip netns exec "c13-$n" tc qdisc add dev "c13-$n-n" root tbf rate "$rate" burst 64kb latency 10s
}
link fast 10.213.1 1gbit
link slow 10.213.2 10mbit

for g in gw-fast gw-slow; do
  mkdir -p "/sys/fs/cgroup/cpu/c13-$g"
  echo 10000 > "/sys/fs/cgroup/cpu/c13-$g/cpu.cfs_period_us"   # 10 ms periods: throttling in small steps
  awk -v c="$EDGE_CPU" 'BEGIN { printf "%d\n", c * 10000 }' > "/sys/fs/cgroup/cpu/c13-$g/cpu.cfs_quota_us"
done

cat > "$WORK/mosquitto.conf" <<EOF
listener $PORT 0.0.0.0
allow_anonymous true
persistence false
set_tcp_nodelay true
max_queued_messages 100000
max_inflight_messages 0
EOF
mosquitto -c "$WORK/mosquitto.conf" > "$WORK/mosquitto.log" 2>&1 &
BROKER_PID=$!
sleep 1

echo "$(date -u '+%F %T') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg); planner choose-by $CHOOSE_BY; work dir $WORK"
java -Xmx1g -cp "${BENCH_JAR:-bench/target/continuum-bench-0.1.0-SNAPSHOT-runner.jar}" dev.continuum.bench.continuum.ContinuumBench \
  --work "$WORK" --gateway-jar edge-gateway/target/continuum-edge-gateway-0.1.0-SNAPSHOT-runner.jar \
  --model "$MODEL" --broker-port "$PORT" --jobs "$JOBS" --rate "$RATE" --slo-ms "$SLO_MS" --choose-by "$CHOOSE_BY" \
  --edge-cgroup /sys/fs/cgroup/cpu/c13
