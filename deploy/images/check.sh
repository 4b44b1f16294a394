#!/usr/bin/env bash
# check.sh [transfer-provider|engine]: starts one image and waits until it is healthy, twice over: its HEALTHCHECK's
# probe (continuum-health, run inside the container) and an HTTP GET from the host. Runs with runc and explicit
# ulimits (podman's default crun does not start containers on hosts with hybrid cgroups). Exits 0 when healthy, 1
# otherwise, printing the container's log.
#   transfer-provider (default): needs no database (without CONTINUUM_TRANSFER_DB_URL its actions are files in its
#     state directory); no network, so only its own loopback: it cannot clash with a port on the host.
#   engine: against the machine's PostgreSQL at 127.0.0.1:5432 (a fresh database, dropped after), on the host's
#     network at a free port, authentication off; also fetches the web UI.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
target="${1:-transfer-provider}"
run=(podman --runtime runc)
name="continuum-images-check-$$"
config="$(mktemp -d)"
database=""
cleanup() {
  "${run[@]}" rm -f "$name" >/dev/null 2>&1 || true
  rm -rf "$config"
  [ -z "$database" ] || psql -h 127.0.0.1 -U postgres -d postgres -qc "drop database if exists $database" >/dev/null 2>&1 || true
}
trap cleanup EXIT

case "$target" in
  transfer-provider)
    echo '{"endpoints": [{"id": "scratch", "type": "directory", "root": "/var/lib/continuum/scratch", "owner": "urn:continuum:user:check", "readers": ["public"], "writers": []}]}' \
      > "$config/endpoints.json"
    chmod -R a+rX "$config"
    port=8093 health=/health
    options=(--network none -v "$config:/etc/continuum/transfer:ro")
    get() { nsenter -t "$pid" -n curl -sf "http://127.0.0.1:$port$1"; }
    ;;
  engine)
    database="continuum_images_check_$$"
    psql -h 127.0.0.1 -U postgres -d postgres -qc "create database $database" >/dev/null
    port=18080
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    health=/q/health/ready
    options=(--network host -e CONTINUUM_DB_NAME="$database" -e CONTINUUM_AUTH_ENABLED=false
             -e QUARKUS_HTTP_HOST=127.0.0.1 -e QUARKUS_HTTP_PORT="$port"
             --health-cmd "[\"/usr/local/bin/continuum-health\", \"$port\", \"$health\"]")
    get() { curl -sf "http://127.0.0.1:$port$1"; }
    ;;
  *) echo "usage: check.sh [transfer-provider|engine]" >&2; exit 2 ;;
esac
image="continuum/$target:$version"

started=$(date +%s%N)
# --health-interval disable: the loop below runs the HEALTHCHECK itself (podman's timers need systemd)
"${run[@]}" run -d --name "$name" --ulimit nofile=1024:1024 --ulimit nproc=1024:1024 --health-interval disable \
  "${options[@]}" "$image" >/dev/null 2>"$config/run.err" || { cat "$config/run.err" >&2; exit 1; }
pid="$(podman inspect --format '{{.State.Pid}}' "$name")"
echo "images: $image started as uid $(awk '/^Uid:/{print $2}' /proc/"$pid"/status)"

for _ in $(seq 1 180); do
  if "${run[@]}" healthcheck run "$name" >/dev/null 2>&1; then
    ms=$(( ($(date +%s%N) - started) / 1000000 ))
    echo "images: healthy after ${ms} ms: HEALTHCHECK passed, GET $health answered $(get "$health" | tr -d ' \n' | cut -c1-200)"
    if [ "$target" = engine ]; then
      get / | grep -q '<title>Continuum' || { echo "images: the engine does not serve the web UI at /" >&2; exit 1; }
      echo "images: the engine serves the web UI at /"
    fi
    exit 0
  fi
  [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] || break
  sleep 1
done
echo "images: $image did not become healthy" >&2
podman logs "$name" >&2 || true
exit 1
