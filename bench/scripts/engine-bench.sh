#!/usr/bin/env bash
# Issue 3's engine load benchmark on a fresh database: starts the built engine, waits until it is ready,
# runs the load driver against it, stops it and drops the database. Prints the driver's report.
#   bench/scripts/engine-bench.sh [driver flags, e.g. --runs 2000 --concurrency 32 --warmup 1500, or --sweep]
# Needs: `mvn -B -q -pl flow-engine/service,bench -am package -DskipTests`, a PostgreSQL at
# $PGHOST:$PGPORT (default 127.0.0.1:5432, user postgres) and JAVA_HOME >= 21. ENGINE_JAVA_OPTS adds JVM flags
# (e.g. -XX:StartFlightRecording=filename=engine.jfr,settings=profile). ENGINE_APP runs another build's quarkus-app
# directory (a copy kept from before a change) instead of flow-engine/service/target/quarkus-app. BENCH_MAIN runs another
# driver of the bench jar with the same flags, e.g. BENCH_MAIN=dev.continuum.bench.engine.ActiveRunsLoad (issue 18's
# 10,000 active runs: `BENCH_MAIN=… bench/scripts/engine-bench.sh --runs 10000 --samples 5000`). PG_LOG_STATEMENTS=1 sets
# log_statement=all on the fresh database (every statement the engine sends lands in PostgreSQL's server log, with
# its parameters), which is how the statement mix per run in docs/benchmarks.md ("floors") was captured.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
db="bench_engine_$$"
port=$((18000 + RANDOM % 1000))
log="$(mktemp -t continuum-bench-engine.XXXXXX.log)"
psql -q -c "CREATE DATABASE $db" >/dev/null
if [ -n "${PG_LOG_STATEMENTS:-}" ]; then psql -q -c "ALTER DATABASE $db SET log_statement = 'all'" >/dev/null; echo "database $db logs every statement"; fi
# The peer's service tasks are in-process delegates that keep no record of their own, so by default the built-ins
# here keep theirs in memory too; BUILTIN_ACTION_STORE=database measures the engine's default (one record per action in
# PostgreSQL, shared by every engine; docs/benchmarks.md gives both).
CONTINUUM_PROVIDERS_BUILTIN_ACTION_STORE="${BUILTIN_ACTION_STORE:-memory}" \
CONTINUUM_AUTH_ENABLED=false CONTINUUM_DB_HOST="$PGHOST" CONTINUUM_DB_PORT="$PGPORT" CONTINUUM_DB_NAME="$db" \
  QUARKUS_HTTP_PORT=$port CONTINUUM_SELF_URL="http://127.0.0.1:$port" \
  "$java" ${ENGINE_JAVA_OPTS:-} -jar "${ENGINE_APP:-$root/flow-engine/service/target/quarkus-app}/quarkus-run.jar" >"$log" 2>&1 &
engine=$!
cleanup() { kill "$engine" 2>/dev/null || true; wait "$engine" 2>/dev/null || true; psql -q -c "DROP DATABASE IF EXISTS $db" >/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null && break; sleep 1; done
curl -sf "http://127.0.0.1:$port/q/health/ready" >/dev/null || { echo "engine did not become ready; see $log" >&2; exit 1; }
echo "engine pid $engine on port $port (log $log)"
"$java" -cp "$root/bench/target/continuum-bench-0.1.0-SNAPSHOT-runner.jar" "${BENCH_MAIN:-dev.continuum.bench.engine.EngineLoad}" --api "http://127.0.0.1:$port" --engine-pid "$engine" --pg-db "$db" "$@"
