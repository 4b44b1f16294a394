#!/usr/bin/env bash
# `./continuum images`: an OCI image per deployable, with podman and no registry or Docker. Each image is the base
# (base.sh: Debian packages and a Java 21 JRE) plus the module's packaged application, added by a Containerfile of
# COPY/USER/ENV/EXPOSE/HEALTHCHECK/ENTRYPOINT only, so building runs no container. Tagged continuum/<name>:<version>
# and :<version>-<commit>; files and dates fixed to the commit's time, so the same commit on the same base gives the
# same digests. Writes target/images/: <name>.sbom.json (CycloneDX, the application's Java dependencies),
# base.packages.tsv (the base's Debian packages) and images.tsv (name, tag, digest, size). Then the images of
# PostgreSQL, Keycloak and Mosquitto that `podman kube play` runs beside them (services.sh).
# CONTINUUM_SKIP_BUILD=1 takes the modules as already packaged; MAVEN_ARGS goes to Maven (with -o it writes no SBOM:
# the CycloneDX plugin requires online mode).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/images"
out="$root/target/images"
cd "$root"

command -v podman >/dev/null || { echo "images: podman is needed (apt-get install podman)" >&2; exit 2; }

# name  module  layout  port  health path (- for none: the edge gateway serves no HTTP)  default arguments
images=(
  "engine                flow-engine/service        quarkus 8080 /q/health/live -"
  "planner               placement/planner-service  quarkus 8083 /q/health/live -"
  "inference-provider    action-providers/inference jar     8093 /health        --host,0.0.0.0,--port,8093"
  "transfer-provider     action-providers/transfer  jar     8093 /health        --host,0.0.0.0,--port,8093,--endpoints,/etc/continuum/transfer/endpoints.json,--state,/var/lib/continuum/transfer/state"
  "training-provider     action-providers/training  jar     8096 /health        --host,0.0.0.0,--port,8096,--work-dir,/var/lib/continuum/training"
  "edge-gateway          edge-gateway               jar     -    -              --state-dir,/var/lib/continuum/gateway,--data-dir,/var/lib/continuum/gateway/data"
)

version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)"
commit="$(git rev-parse --short HEAD)"
[ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-dirty"
epoch="$(git log -1 --format=%ct)"
modules="$(printf '%s\n' "${images[@]}" | awk '{print $2}' | paste -sd, -)"

if [ -z "${CONTINUUM_SKIP_BUILD:-}" ]; then
  # the commit's time in every jar and SBOM (the pom's profile "reproducible"), so that packaging the same commit again
  # gives the same bytes — except Quarkus' generated-bytecode.jar, whose recorded classes' names vary from build to build
  goals=(package)
  case " ${MAVEN_ARGS:-} " in
    *" -o "*|*" --offline "*) echo "images: offline, so no SBOMs (CycloneDX's makeBom runs only online)" >&2 ;;
    *) goals+=(org.cyclonedx:cyclonedx-maven-plugin:makeBom) ;;
  esac
  echo "images: packaging $modules"
  for m in ${modules//,/ }; do rm -f "$m/target/bom.json"; done
  mvn -B -q -nsu ${MAVEN_ARGS:-} "${goals[@]}" -DskipTests -pl "$modules" -am \
    -Dcontinuum.build.timestamp="$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)" -DoutputFormat=json -DoutputName=bom
fi

base="$(bash "$here/base.sh")"
rm -rf "$out"; mkdir -p "$out"
b="${base#continuum/}"
cp "${XDG_CACHE_HOME:-$HOME/.cache}/continuum/images/${b/:/-}.packages.tsv" "$out/base.packages.tsv" 2>/dev/null || true

printf 'name\ttag\tdigest\tsize_bytes\n' > "$out/images.tsv"
for row in "${images[@]}"; do
  read -r name module layout port health args <<<"$row"
  context="$out/$name"
  mkdir -p "$context/app"
  if [ "$layout" = quarkus ]; then
    cp -r "$module/target/quarkus-app/." "$context/app/"
    jar=quarkus-run.jar
  else
    cp "$module"/target/*-"$version"-runner.jar "$context/app/app.jar"
    jar=app.jar
  fi
  [ ! -f "$module/target/bom.json" ] || cp "$module/target/bom.json" "$out/$name.sbom.json"
  {
    echo "FROM $base"
    echo "COPY app /opt/continuum/$name"
    echo "WORKDIR /var/lib/continuum"
    [ "$layout" = quarkus ] && echo "ENV QUARKUS_HTTP_HOST=0.0.0.0"
    echo "USER 10001:10001"
    if [ "$port" != - ]; then
      echo "EXPOSE $port"
      echo "HEALTHCHECK --interval=30s --timeout=5s --start-period=60s CMD [\"/usr/local/bin/continuum-health\", \"$port\", \"$health\"]"
    fi
    echo "ENTRYPOINT [\"java\", \"-XX:MaxRAMPercentage=75\", \"-jar\", \"/opt/continuum/$name/$jar\"]"
    [ "$args" != - ] && echo "CMD [\"${args//,/\", \"}\"]"
    echo "LABEL org.opencontainers.image.title=continuum-$name org.opencontainers.image.version=$version org.opencontainers.image.revision=$commit"
  } > "$context/Containerfile"
  podman build -q --format docker --timestamp "$epoch" -t "continuum/$name:$version" -t "continuum/$name:$version-$commit" \
    -f "$context/Containerfile" "$context" >/dev/null
  rm -rf "$context/app"
  podman image inspect --format "$name	continuum/$name:$version-$commit	{{.Digest}}	{{.Size}}" "continuum/$name:$version" >> "$out/images.tsv"
done
# what the manifests run beside them: PostgreSQL, Keycloak and Mosquitto (services.sh), for `podman kube play`
bash "$here/services.sh"
podman image inspect --format "base	$base	{{.Digest}}	{{.Size}}" "$base" >> "$out/images.tsv"
services="$(bash "$here/base.sh" services)"
podman image inspect --format "base-services	$services	{{.Digest}}	{{.Size}}" "$services" >> "$out/images.tsv"
column -t -s $'\t' "$out/images.tsv"
