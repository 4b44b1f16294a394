#!/usr/bin/env bash
# Throughput of the transfer provider against cp -r and rclone on the same data, same run.
#   action-providers/transfer/bench/transfer-bench.sh [BENCH_DIR]
# Needs the runner jar (mvn -B -q -o -pl action-providers/transfer package -DskipTests), curl, python3;
# rclone when installed. Data sets: one 2 GiB file; 10,000 files of 16 KiB. Prints one line per run;
# never asserts. Sizes can be lowered with LARGE_MIB=.. SMALL_COUNT=.. for a quick look; DATASETS="large" runs one
# data set, ROUNDS=1 one round, TOOLS="cp gateway" some of cp rclone continuum gateway.
# Gateway -> datacenter: the same source directory is also served by a gateway storage process
# (GatewayStorageMain, read-only) over the MQTT broker BROKER (default 127.0.0.1:1883; skipped when
# nothing answers there), and copied to the datacenter directory through the provider.
# ALGORITHMS="blake3 sha256" (checksum_algorithm of the verified runs); BEFORE_JAR=path/to/older-runner.jar also runs
# that jar's provider on the same data in the same round (rows "before"), for before/after comparisons.
# Polling: curl + grep every 20 ms (a python per poll would take CPU from the transfer on 2 cores).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bench="${1:-/tmp/continuum-transfer-bench}"
large_mib="${LARGE_MIB:-2048}"
small_count="${SMALL_COUNT:-10000}"
parallelism="${PARALLELISM:-4}"
datasets="${DATASETS:-large small}"
rounds="${ROUNDS:-2}"
tools=" ${TOOLS:-cp rclone continuum gateway} "
algorithms="${ALGORITHMS:-blake3 sha256}"
before_jar="${BEFORE_JAR:-}"
jar="$(ls "$here"/target/continuum-transfer-provider-*-runner.jar | head -1)"
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
mkdir -p "$bench/src/large" "$bench/src/small"

if [ ! -f "$bench/src/large/data.bin" ] || [ "$(stat -c %s "$bench/src/large/data.bin")" -ne $((large_mib * 1048576)) ]; then
  head -c $((large_mib * 1048576)) /dev/urandom > "$bench/src/large/data.bin"
fi
if [ "$(find "$bench/src/small" -type f | wc -l)" -ne "$small_count" ]; then
  rm -rf "$bench/src/small"; mkdir -p "$bench/src/small"
  python3 - "$bench/src/small" "$small_count" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%03d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d.bin" % i), "wb") as f:
        f.write(os.urandom(16384))
PY
fi

broker="${BROKER:-127.0.0.1:1883}"
gateway_device="bench-gw-$$"
gateway_topics="continuum-bench-$$"
if (exec 3<>"/dev/tcp/${broker%:*}/${broker##*:}") 2>/dev/null; then has_broker=1; else has_broker=0; fi
cat > "$bench/endpoints.json" <<JSON
{"endpoints": [
  {"id": "src", "type": "directory", "root": "$bench/src", "owner": "local:anonymous"},
  {"id": "gw", "type": "gateway", "device_id": "$gateway_device", "broker": "$broker", "topic_root": "$gateway_topics",
   "owner": "local:anonymous"},
  {"id": "dst", "type": "directory", "root": "$bench/dst", "owner": "local:anonymous"}]}
JSON
gateway=""
if [ "$has_broker" = 1 ]; then
  "$java" -cp "$jar" dev.continuum.provider.transfer.gateway.GatewayStorageMain --device-id "$gateway_device" \
      --root "$bench/src" --broker "$broker" --topic-root "$gateway_topics" --read-only > "$bench/gateway.log" 2>&1 &
  gateway=$!
  for _ in $(seq 100); do grep -q "serving" "$bench/gateway.log" && break; sleep 0.2; done
fi
rm -rf "$bench/state" "$bench/state-before" "$bench/dst"; mkdir -p "$bench/dst"
# the Vector API module lets the provider hash BLAKE3 on 512-bit lanes (docs/decisions/0010)
"$java" --add-modules jdk.incubator.vector -jar "$jar" --endpoints "$bench/endpoints.json" --state "$bench/state" --port 0 \
    --parallelism "$parallelism" > "$bench/provider.log" 2>&1 &
provider=$!
before=""
if [ -n "$before_jar" ]; then
  "$java" -jar "$before_jar" --endpoints "$bench/endpoints.json" --state "$bench/state-before" --port 0 \
      --parallelism "$parallelism" > "$bench/provider-before.log" 2>&1 &
  before=$!
fi
trap 'kill $provider $gateway $before 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q "listening on" "$bench/provider.log" && break; sleep 0.2; done
url="$(grep -o 'http://[^ ]*/providers/transfer' "$bench/provider.log" | head -1)"
if [ -n "$before" ]; then
  for _ in $(seq 100); do grep -q "listening on" "$bench/provider-before.log" && break; sleep 0.2; done
  url_before="$(grep -o 'http://[^ ]*/providers/transfer' "$bench/provider-before.log" | head -1)"
fi

now() { date +%s.%N; }
report() { # name dataset bytes seconds cpu-seconds
  python3 -c "import sys; n,d,b,s,c=sys.argv[1:]; b=int(b); s=float(s); print(f'{d:6s} {n:30s} {s:8.2f} s {b/s/1e6:9.1f} MB/s   cpu {float(c):6.2f} s')" "$@"
}
# CPU seconds (user+sys) a process has used so far: wall times swing with the other builds on this
# machine, CPU per byte much less
cpu_of() { [ -n "$1" ] && awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14+$15)/hz}' "/proc/$1/stat" || echo 0; }
timed() { # command... ; prints "wall cpu" of the command
  /usr/bin/time -f "%e %U %S" -o "$bench/time.out" "$@" && awk '{printf "%s %.2f", $1, $2+$3}' "$bench/time.out"
}
bytes_of() { du -sb --apparent-size "$1" | cut -f1; }

run_continuum() { # dataset verify [source endpoint] [algorithm] [before]
  local ds="$1" verify="$2" from="${3:-src}" algorithm="${4:-}" which="${5:-}" body t0 t1 id status answer
  local u="$url" pid="$provider" name="continuum"
  [ "$which" = before ] && { u="$url_before"; pid="$before"; name="before"; }
  local extra=""; [ -n "$algorithm" ] && extra=",\"checksum_algorithm\":\"$algorithm\""
  rm -rf "$bench/dst/c-$ds"
  sync
  body="{\"request_id\":\"bench-$ds-$RANDOM\",\"body\":{\"source_endpoint_id\":\"$from\",\"destination_endpoint_id\":\"dst\",\"transfer_items\":[{\"source_path\":\"/$ds\",\"destination_path\":\"/c-$ds\",\"recursive\":true}],\"verify_checksum\":$verify$extra}}"
  c0=$(python3 -c "print($(cpu_of $pid)+$(cpu_of "$([ "$from" = gw ] && echo "$gateway")"))")
  t0=$(now)
  id=$(curl -s -XPOST "$u/transfer/run" -H 'Content-Type: application/json' -d "$body" | grep -o '"action_id" *: *"[^"]*"' | cut -d'"' -f4)
  while answer=$(curl -s "$u/transfer/$id/status"); echo "$answer" | grep -Eq '"status" *: *"ACTIVE"'; do
    sleep 0.02
  done
  t1=$(now)
  c1=$(python3 -c "print($(cpu_of $pid)+$(cpu_of "$([ "$from" = gw ] && echo "$gateway")"))")
  echo "$answer" | grep -Eq '"status" *: *"SUCCEEDED"' || { echo "$name transfer $ds ended: $answer"; exit 1; }
  local algo; algo=$(echo "$answer" | grep -o '"checksum_algorithm" *: *"[^"]*"' | cut -d'"' -f4)
  report "$name $from (verify=$verify${algo:+, $algo})" "$ds" "$(bytes_of "$bench/src/$ds")" "$(python3 -c "print($t1-$t0)")" "$(python3 -c "print($c1-$c0)")"
}

run_cp() {
  local ds="$1" r
  rm -rf "$bench/dst/cp-$ds"; sync
  r=$(timed cp -r "$bench/src/$ds" "$bench/dst/cp-$ds")
  report "cp -r" "$ds" "$(bytes_of "$bench/src/$ds")" ${r% *} ${r#* }
}

run_rclone() {
  local ds="$1" r
  command -v rclone >/dev/null || { echo "$ds rclone: not installed"; return; }
  rm -rf "$bench/dst/rc-$ds"; sync
  r=$(timed rclone copy -q --transfers "$parallelism" "$bench/src/$ds" "$bench/dst/rc-$ds")
  report "rclone copy (hash check)" "$ds" "$(bytes_of "$bench/src/$ds")" ${r% *} ${r#* }
}

echo "# $(date -u +%FT%TZ) $(nproc) cores; data in page cache; parallelism $parallelism; large ${large_mib} MiB, small ${small_count} x 16 KiB; load $(cut -d' ' -f1-3 /proc/loadavg)"
for ds in $datasets; do
  cat "$bench/src/$ds"/* > /dev/null 2>&1 || find "$bench/src/$ds" -type f -exec cat {} + > /dev/null
  for round in $(seq "$rounds"); do
    [[ $tools == *" cp "* ]] && run_cp "$ds"
    [[ $tools == *" rclone "* ]] && run_rclone "$ds"
    if [[ $tools == *" continuum "* ]]; then
      [ -n "$before" ] && { run_continuum "$ds" true src "" before; run_continuum "$ds" false src "" before; }
      for a in $algorithms; do run_continuum "$ds" true src "$a"; done
      run_continuum "$ds" false
    fi
    if [[ $tools == *" gateway "* ]]; then
      if [ -n "$gateway" ]; then run_continuum "$ds" true gw "${algorithms%% *}"; else echo "$ds gateway: no broker at $broker"; fi
    fi
  done
  rm -rf "$bench/dst"/*
done
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
