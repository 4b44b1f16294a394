#!/usr/bin/env bash
# Starts the transfer provider's image (it needs no database: without CONTINUUM_TRANSFER_DB_URL its actions are files
# in its state directory) and waits until it is healthy, twice over: the image's own HEALTHCHECK (`podman
# healthcheck run`, continuum-health inside the container) and an HTTP GET of /health from the host, made inside the
# container's network namespace. No network: the container has only its loopback, so it cannot clash with a port on
# the host. Runs with runc and explicit ulimits (podman's default crun does not start containers on hosts with hybrid
# cgroups). Exits 0 when healthy, 1 otherwise, printing the container's log.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$root/pom.xml" | head -1)"
image="${1:-continuum/transfer-provider:$version}"
run=(podman --runtime runc)
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)

config="$(mktemp -d)"
name="continuum-images-check-$$"
trap '"${run[@]}" rm -f "$name" >/dev/null 2>&1 || true; rm -rf "$config"' EXIT
echo '{"endpoints": [{"id": "scratch", "type": "directory", "root": "/var/lib/continuum/scratch", "owner": "urn:continuum:user:check", "readers": ["public"], "writers": []}]}' \
  > "$config/endpoints.json"
chmod -R a+rX "$config"

started=$(date +%s%N)
# --health-interval disable: the check below runs the HEALTHCHECK itself (podman's timers need systemd)
"${run[@]}" run -d --name "$name" "${limits[@]}" --network none --health-interval disable \
  -v "$config:/etc/continuum/transfer:ro" "$image" >/dev/null 2>"$config/run.err" || { cat "$config/run.err" >&2; exit 1; }
pid="$(podman inspect --format '{{.State.Pid}}' "$name")"
echo "images: $image started as uid $(awk '/^Uid:/{print $2}' /proc/"$pid"/status)"

for _ in $(seq 1 120); do
  if "${run[@]}" healthcheck run "$name" >/dev/null 2>&1; then
    ms=$(( ($(date +%s%N) - started) / 1000000 ))
    body="$(nsenter -t "$pid" -n curl -sf http://127.0.0.1:8093/health)"
    echo "images: healthy after ${ms} ms: HEALTHCHECK passed, GET /health answered $body"
    exit 0
  fi
  [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] || break
  sleep 1
done
echo "images: $image did not become healthy" >&2
podman logs "$name" >&2 || true
exit 1
