#!/usr/bin/env bash
# Completed runs/s against the number of engine instances on one PostgreSQL (issue 17): for each count N
# (default 1 2 3) a fresh database, N engines on it (own instance ids and ports), and N load drivers side by
# side, one per engine, each with 1/N of the runs and of the concurrency. Prints one row per N: the summed
# runs/s and each driver's own. The drivers start together but end apart, so the sum is approximate.
#   bench/scripts/engine-instances.sh [--counts "1 2 3"] [driver flags, default --runs 2000 --concurrency 64 --warmup 1000]
# Needs what engine-bench.sh needs (the built engine and driver, a PostgreSQL at $PGHOST:$PGPORT, JAVA_HOME >= 21).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
counts="1 2 3"
if [ "${1:-}" = "--counts" ]; then counts="$2"; shift 2; fi
runs=2000 concurrency=64 warmup=1000 extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    *) extra+=("$1"); shift ;;
  esac
done
engines=() db=""
cleanup() {
  for pid in "${engines[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  engines=()
  [ -n "$db" ] && psql -q -c "DROP DATABASE IF EXISTS $db" >/dev/null || true
  db=""
}
trap cleanup EXIT
printf '%-10s %-14s %s\n' instances "runs/s (sum)" "runs/s per driver"
for n in $counts; do
  db="bench_instances_$$_$n"
  psql -q -c "CREATE DATABASE $db" >/dev/null
  ports=()
  for i in $(seq 1 "$n"); do
    port=$((19000 + RANDOM % 1000))
    ports+=("$port")
    # The first engine migrates the schema; the others start once it is ready.
    CONTINUUM_AUTH_ENABLED=false CONTINUUM_DB_HOST="$PGHOST" CONTINUUM_DB_PORT="$PGPORT" CONTINUUM_DB_NAME="$db" \
      CONTINUUM_INSTANCE_ID="bench-$i" QUARKUS_HTTP_PORT=$port CONTINUUM_SELF_URL="http://127.0.0.1:$port" \
      "$java" ${ENGINE_JAVA_OPTS:-} -jar "$root/flow-engine/service/target/quarkus-app/quarkus-run.jar" \
      >"$(mktemp -t continuum-bench-instance.XXXXXX.log)" 2>&1 &
    engines+=("$!")
    for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null && break; sleep 1; done
    curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null || { echo "engine $i of $n did not become ready" >&2; exit 1; }
  done
  outs=() drivers=()
  for port in "${ports[@]}"; do
    out="$(mktemp -t continuum-bench-driver.XXXXXX.txt)"
    outs+=("$out")
    "$java" -jar "$root/bench/target/continuum-bench-0.1.0-SNAPSHOT-runner.jar" --api "http://127.0.0.1:$port" \
      --runs $((runs / n)) --concurrency $((concurrency / n > 0 ? concurrency / n : 1)) --warmup $((warmup / n)) \
      "${extra[@]}" >"$out" 2>&1 &
    drivers+=("$!")
  done
  for pid in "${drivers[@]}"; do wait "$pid" || echo "a driver failed (see ${outs[*]})" >&2; done
  each=$(for out in "${outs[@]}"; do awk '/^completed runs\/s/ {print $3}' "$out"; done | paste -sd' ')
  sum=$(echo "$each" | tr ' ' '\n' | awk '{s += $1} END {printf "%.1f", s}')
  printf '%-10s %-14s %s\n' "$n" "$sum" "$each"
  cleanup
done
