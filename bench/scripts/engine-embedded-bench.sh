#!/usr/bin/env bash
# Issue 17 A like for like with the peer: the engine in process (EmbeddedEngineBench, a @QuarkusTest run on its own),
# runs started through its Java API by starter threads, done when the final change is committed; a fresh PostgreSQL
# database (PostgresResource: the machine's 127.0.0.1:5432 when it answers). Prints lines starting with BENCH and the load.
#   bench/scripts/engine-embedded-bench.sh [runs=3000] [warmup=1000] [starters=4] [concurrency=0: open loop]
# PEER=1 runs the peer (Operaton embedded, $PEER_DIR, default /tmp/bpmn-peer; database peerbench) right after with the
# same runs, warm-up and starters, and prints the ratio of completed runs/s. ENGINE_JAVA_OPTS adds JVM flags to the
# engine's JVM (e.g. -XX:StartFlightRecording=filename=/tmp/embedded.jfr,settings=profile). ENGINE_TREE measures another
# checkout's engine (a worktree kept at the baseline) with this script. Needs JAVA_HOME >= 21, Maven with the project's
# dependencies (offline), psql, and PostgreSQL on this machine (its backends' CPU is read from /proc).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tree="${ENGINE_TREE:-$root}"
runs="${1:-3000}" warmup="${2:-1000}" starters="${3:-4}" concurrency="${4:-0}"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" PATH="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin:$PATH"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
log="$(mktemp -t continuum-embedded-bench.XXXXXX.log)"
echo "load before: $(uptime)"
date -u +"start %Y-%m-%dT%H:%M:%SZ"
(cd "$tree" && mvn -B -o -pl flow-engine/service -am test -Dtest=EmbeddedEngineBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dembedded-bench.enabled=true -Dembedded-bench.runs="$runs" -Dembedded-bench.warmup="$warmup" \
  -Dembedded-bench.starters="$starters" -Dembedded-bench.concurrency="$concurrency" ${ENGINE_JAVA_OPTS:+"-DargLine=$ENGINE_JAVA_OPTS"}) \
  >"$log" 2>&1 || { echo "bench failed; see $log" >&2; grep -E "BENCH|FAIL|ERROR\]" "$log" | head -40 >&2; exit 1; }
grep "BENCH" "$log" | sed 's/^.*BENCH /BENCH /'
ours="$(grep -o 'BENCH completed runs/s *[0-9.]*' "$log" | awk '{print $NF}')"
if [ -n "${PEER:-}" ]; then
  peer_dir="${PEER_DIR:-/tmp/bpmn-peer}"
  echo "load between: $(uptime)"
  out="$(cd "$peer_dir" && N="$runs" WARMUP="$warmup" STARTERS="$starters" ./run.sh 2>&1)" || { echo "$out" >&2; exit 1; }
  echo "$out" | grep -E "^peer=|detail:|completed in"
  theirs="$(echo "$out" | grep -o 'inst_per_s=[0-9.]*' | cut -d= -f2)"
  awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "RATIO embedded engine %.1f / peer %.1f runs/s = %.2fx\n", a, b, a / b }'
fi
date -u +"end %Y-%m-%dT%H:%M:%SZ"
echo "load after: $(uptime)"
