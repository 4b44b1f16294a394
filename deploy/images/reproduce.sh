#!/usr/bin/env bash
# deploy/images/reproduce.sh: the full reproducibility check, run by hand before a release and after changing
# deploy/images or the pom's profile "reproducible" (too slow for every CI run: three builds, two of them packaging the
# modules, 10-12 min here; CI's .ci/images builds once and rebuilds from the same packaged applications). Builds the
# images twice (`./continuum images`, packaging the modules each time) and a third time from the same packaged
# applications; fails unless the digests agree (see below).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Quarkus 3.34 names the classes it records at build time (quarkus/generated-bytecode.jar) differently on each build,
# so the engine's and the planner's images are the same only when built from the same packaged application.

missing=()
for tool in podman runc debootstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
[ ${#missing[@]} -eq 0 ] || { echo "reproduce: needs ${missing[*]} (apt-get install podman runc debootstrap)" >&2; exit 2; }
export CONTAINERS_CONF="$PWD/deploy/images/containers.conf"

start=$(date +%s)
./continuum images
first="$(mktemp)"
cp target/images/images.tsv "$first"
echo "reproduce: first build $(( $(date +%s) - start )) s"

quarkus='^(engine|planner)\s'
second="$(mktemp)"
trap 'rm -f "$first" "$second"' EXIT
again=$(date +%s)
./continuum images
cp target/images/images.tsv "$second"
echo "reproduce: second build $(( $(date +%s) - again )) s"
if ! diff <(cut -f1,3 "$first" | grep -v -E "$quarkus") <(cut -f1,3 "$second" | grep -v -E "$quarkus"); then
  echo "reproduce: the same commit packaged and built twice gave different image digests (above)" >&2
  exit 1
fi
# the same packaged applications again: now every image, the Quarkus ones too, must come out the same
CONTINUUM_SKIP_BUILD=1 ./continuum images >/dev/null
if ! diff <(cut -f1,3 "$second") <(cut -f1,3 target/images/images.tsv); then
  echo "reproduce: the same applications built into images twice gave different digests (above)" >&2
  exit 1
fi
echo "reproduce: same digests: every image from the same packaged applications; all but engine and planner from a new packaging"
echo "reproduce: done in $(( $(date +%s) - start )) s"
