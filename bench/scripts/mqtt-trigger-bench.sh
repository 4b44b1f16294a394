#!/usr/bin/env bash
# Issue 15's MQTT trigger benchmark: N events (default 10,000) published at QoS 1 within D seconds (default 60) to
# one trigger on a loopback broker; reports started runs, lost and duplicate events, p50/p99 from the event's send
# time to its run's creation (the run row is committed in the same transaction group), and the engine's heap after
# a full GC before and after. Fresh database; the engine is the built jar.
#   bench/scripts/mqtt-trigger-bench.sh [events] [seconds]
# Needs: `mvn -B -q -pl flow-engine/service -am package -DskipTests`, PostgreSQL at $PGHOST:$PGPORT (default
# 127.0.0.1:5432, user postgres), mosquitto and mosquitto_pub, python3, JAVA_HOME >= 21. ENGINE_JAR names another
# engine jar. The broker: the bench starts a Mosquitto of its own on a free port with bench/mosquitto-triggers.conf
# (the settings a broker feeding triggers needs, docs/operations.md; MQTT_CONF names another file, e.g.
# bench/mosquitto-stock.conf); MQTT_HOST/MQTT_PORT name a running broker instead. ENGINE_CPUS=1 pins the engine to
# those CPUs (taskset), to starve it on purpose.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
jcmd="$(dirname "$java")/jcmd"
events="${1:-10000}" seconds="${2:-60}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
db="bench_mqtt_$$" port=$((19000 + RANDOM % 1000)) run="mqttbench-$$"
topic="bench/$run/frames"
log="$(mktemp -t continuum-bench-mqtt.XXXXXX.log)"
broker=""
if [ -n "${MQTT_PORT:-}" ]; then
  mqtt_host="${MQTT_HOST:-127.0.0.1}" mqtt_port="$MQTT_PORT"
else
  mqtt_host=127.0.0.1 mqtt_port=$((18300 + RANDOM % 500))
  conf="$(mktemp -t continuum-bench-mosquitto.XXXXXX.conf)"
  { cat "${MQTT_CONF:-$root/bench/mosquitto-triggers.conf}"; echo "listener $mqtt_port 127.0.0.1"; } >"$conf"
  mosquitto -c "$conf" >"$log.broker" 2>&1 &
  broker=$!
  for _ in $(seq 1 50); do mosquitto_pub -h 127.0.0.1 -p "$mqtt_port" -t probe -n 2>/dev/null && break; sleep 0.1; done
fi
psql -q -c "CREATE DATABASE $db" >/dev/null
CONTINUUM_AUTH_ENABLED=false CONTINUUM_DB_HOST="$PGHOST" CONTINUUM_DB_PORT="$PGPORT" CONTINUUM_DB_NAME="$db" \
  CONTINUUM_PROVIDERS_BUILTIN_ENABLED=false QUARKUS_HTTP_PORT=$port CONTINUUM_INSTANCE_ID="$run" \
  ${ENGINE_CPUS:+taskset -c "$ENGINE_CPUS"} "$java" ${ENGINE_JAVA_OPTS:-} -Dmp.messaging.incoming.trigger-mqtt.enabled=true \
  -Dmp.messaging.incoming.trigger-mqtt.host="$mqtt_host" -Dmp.messaging.incoming.trigger-mqtt.port="$mqtt_port" \
  -jar "${ENGINE_JAR:-$root/flow-engine/service/target/quarkus-app/quarkus-run.jar}" >"$log" 2>&1 &
engine=$!
cleanup() {
  kill "$engine" 2>/dev/null || true; wait "$engine" 2>/dev/null || true
  [ -z "$broker" ] || { kill "$broker" 2>/dev/null || true; wait "$broker" 2>/dev/null || true; }
  psql -q -c "DROP DATABASE IF EXISTS $db" >/dev/null || true
}
trap cleanup EXIT
api="http://127.0.0.1:$port"
for _ in $(seq 1 400); do curl -sf "$api/q/health/ready" >/dev/null && break; sleep 1; done
curl -sf "$api/q/health/ready" >/dev/null || { echo "engine did not become ready; see $log" >&2; exit 1; }
flow=$(curl -sf -H 'Content-Type: application/json' "$api/flows" \
  -d '{"title":"keep","definition":{"StartAt":"Keep","States":{"Keep":{"Type":"Pass","End":true}}}}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["id"])')
curl -sf -H 'Content-Type: application/json' "$api/triggers" -d '{"title":"bench","source":{"type":"mqtt","topic":"'"$topic"'"},"flow_id":"'"$flow"'","input_template":{"n.$":"$.n"}}' >/dev/null
heap() { "$jcmd" "$engine" GC.run >/dev/null; "$jcmd" "$engine" GC.heap_info | awk '/used/ {for (i=1;i<=NF;i++) if ($i=="used") {print $(i+1); exit}}'; }
echo "engine pid $engine on port $port (log $log); broker $mqtt_host:$mqtt_port; $events events in ${seconds}s to $topic"
# warm-up: 200 events on the same trigger, not counted
python3 - "$events" "$seconds" "$topic" warm <<'PY' | mosquitto_pub -h "$mqtt_host" -p "$mqtt_port" -q 1 -t "$topic" -l
import sys, time
for i in range(200):
    print('{"event_id":"warm-%d","n":%d,"sent_at":%d}' % (i, i, time.time_ns() // 1000))
PY
sleep 3
heap_before=$(heap)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
cpu_before=$(awk '{print $14+$15}' /proc/$engine/stat)
start=$(date +%s.%N)
python3 - "$events" "$seconds" "$topic" <<'PY' | mosquitto_pub -h "$mqtt_host" -p "$mqtt_port" -q 1 -t "$topic" -l
import sys, time
events, seconds = int(sys.argv[1]), float(sys.argv[2])
t0 = time.monotonic()
for i in range(events):
    due = t0 + i * seconds / events
    wait = due - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    print('{"event_id":"e-%d","n":%d,"sent_at":%d}' % (i, i, time.time_ns() // 1000), flush=True)
PY
published=$(date +%s.%N)
for _ in $(seq 1 300); do
  n=$(psql -d "$db" -tAc "SELECT count(*) FROM trigger_events WHERE dedup_key LIKE 'mqtt:id:e-%' AND outcome <> 'starting'")
  [ "$n" -ge "$events" ] && break; sleep 1
done
done_at=$(date +%s.%N)
cpu_after=$(awk '{print $14+$15}' /proc/$engine/stat)
sleep 2
heap_after=$(heap)
psql -d "$db" -tA -F ' ' <<SQL | while read -r started dups missing p50 p99 max; do
SELECT (SELECT count(DISTINCT run_id) FROM trigger_events WHERE dedup_key LIKE 'mqtt:id:e-%' AND outcome = 'started'),
       (SELECT count(*) FROM trigger_events WHERE dedup_key LIKE 'mqtt:id:e-%' AND outcome = 'duplicate'),
       (SELECT count(*) FROM generate_series(0, $events - 1) n WHERE NOT EXISTS
          (SELECT 1 FROM trigger_events WHERE dedup_key = 'mqtt:id:e-' || n AND outcome = 'started')),
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1), round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 1),
       round(max(ms)::numeric, 1)
FROM (SELECT extract(epoch FROM r.created_at) * 1000 - (e.payload->>'sent_at')::bigint / 1000.0 AS ms
      FROM trigger_events e JOIN runs r ON r.id = e.run_id
      WHERE e.dedup_key LIKE 'mqtt:id:e-%' AND e.outcome = 'started') t;
SQL
  echo "events $events in ${seconds}s: started $started, lost $missing, duplicates $dups (redeliveries recorded, no second run)"
  echo "event -> run created: p50 ${p50} ms, p99 ${p99} ms, max ${max} ms"
done
runs=$(psql -d "$db" -tAc "SELECT count(*) FROM runs")
hz=$(getconf CLK_TCK)
awk -v s="$start" -v p="$published" -v d="$done_at" -v c0="$cpu_before" -v c1="$cpu_after" -v hz="$hz" -v n="$events" \
  'BEGIN { printf "publishing took %.1f s, all recorded %.1f s after the first; engine CPU %.2f s (%.2f ms per event)\n", p-s, d-s, (c1-c0)/hz, (c1-c0)/hz*1000/n }'
echo "runs in the database: $runs (incl. 200 warm-up); heap used after full GC: before ${heap_before}, after ${heap_after}"
echo "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
