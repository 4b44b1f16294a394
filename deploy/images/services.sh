#!/usr/bin/env bash
# services.sh: the images of what the manifests run beside Continuum and an operator usually brings, made
# as build.sh makes Continuum's: from Debian packages and Maven Central, with podman, no registry, no RUN step, and
# nothing downloaded when a container runs.
#   continuum/postgres:17   PostgreSQL 17 (Debian) on continuum/base-services; its entry point makes the cluster in
#                           the data volume on first start, with the role POSTGRES_USER / POSTGRES_PASSWORD owning the
#                           databases POSTGRES_DATABASES (space-separated)
#   continuum/mosquitto:2   Mosquitto (Debian) on continuum/base-services, reading /mosquitto/config/mosquitto.conf
#   continuum/keycloak:<v>  Keycloak <v> (org.keycloak:keycloak-quarkus-dist, the version the auth module uses) on
#                           continuum/base (Java 21), built (kc.sh build) for PostgreSQL with health and metrics on;
#                           kc.sh is the entry point, as in Keycloak's own image. Needs a JDK >= 21 (JAVA_HOME or java)
# Appends name, tag, digest and size to target/images/images.tsv when build.sh wrote it. MAVEN_ARGS goes to Maven.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/images"
out="$root/target/images"
cd "$root"
command -v podman >/dev/null || { echo "images: podman is needed (apt-get install podman)" >&2; exit 2; }

keycloak="$(sed -n 's:^ *<keycloak.version>\(.*\)</keycloak.version>$:\1:p' pom.xml | head -1)"
epoch="$(git log -1 --format=%ct)"
services="$(bash "$here/base.sh" services)"
java="$(bash "$here/base.sh" java)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

build() { # name tag context
  podman build -q --format docker --timestamp "$epoch" -t "continuum/$1:$2" -f "$3/Containerfile" "$3" >/dev/null
  [ ! -f "$out/images.tsv" ] || podman image inspect --format "$1	continuum/$1:$2	{{.Digest}}	{{.Size}}" "continuum/$1:$2" >> "$out/images.tsv"
  echo "images: continuum/$1:$2" >&2
}

mkdir -p "$work/postgres"
install -m 0755 "$here/postgres-entrypoint" "$work/postgres/entrypoint"
cat > "$work/postgres/Containerfile" <<CONTAINERFILE
FROM $services
COPY entrypoint /usr/local/bin/continuum-postgres
ENV PGDATA=/var/lib/postgresql/data
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/continuum-postgres"]
LABEL org.opencontainers.image.title=continuum-postgres
CONTAINERFILE
build postgres 17 "$work/postgres"

mkdir -p "$work/mosquitto"
install -m 0755 "$here/mosquitto-entrypoint" "$work/mosquitto/entrypoint"
cat > "$work/mosquitto/Containerfile" <<CONTAINERFILE
FROM $services
COPY entrypoint /usr/local/bin/continuum-mosquitto
EXPOSE 1883
ENTRYPOINT ["/usr/local/bin/continuum-mosquitto"]
LABEL org.opencontainers.image.title=continuum-mosquitto
CONTAINERFILE
build mosquitto 2 "$work/mosquitto"

# Keycloak's distribution from the local Maven repository (downloaded there by Maven unless MAVEN_ARGS has -o), built
# here for the manifests' build options (PostgreSQL, health and metrics on), so `kc.sh start` finds nothing to build
# when the container starts (that build took minutes on a loaded machine). Its generated classes differ from build to
# build, so the image is made once per recipe (this script and the base) and kept, like the bases.
recipe="$(cat "$here/services.sh" | sha256sum | cut -c1-12)-${java##*:}"
if podman image exists "continuum/keycloak:$keycloak-$recipe" && [ -z "${CONTINUUM_REBUILD_BASE:-}" ]; then
  podman tag "continuum/keycloak:$keycloak-$recipe" "continuum/keycloak:$keycloak"
  [ ! -f "$out/images.tsv" ] || podman image inspect --format "keycloak	continuum/keycloak:$keycloak	{{.Digest}}	{{.Size}}" \
    "continuum/keycloak:$keycloak" >> "$out/images.tsv"
  exit 0
fi
mvn -B -q -N ${MAVEN_ARGS:-} dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$keycloak:zip" \
  -DoutputDirectory="$work" >/dev/null
mkdir -p "$work/keycloak"
unzip -q "$work/keycloak-quarkus-dist-$keycloak.zip" -d "$work/keycloak"
mv "$work/keycloak/keycloak-$keycloak" "$work/keycloak/keycloak"
echo "images: building Keycloak $keycloak for PostgreSQL (kc.sh build)" >&2
"$work/keycloak/keycloak/bin/kc.sh" build --db=postgres --health-enabled=true --metrics-enabled=true >"$work/kc-build.log" 2>&1 \
  || { tail -20 "$work/kc-build.log" >&2; exit 1; }
cat > "$work/keycloak/Containerfile" <<CONTAINERFILE
FROM $java
COPY --chown=10001:10001 keycloak /opt/keycloak
WORKDIR /opt/keycloak
USER 10001:10001
EXPOSE 8080 9000
ENTRYPOINT ["/opt/keycloak/bin/kc.sh"]
CMD ["start-dev"]
LABEL org.opencontainers.image.title=continuum-keycloak org.opencontainers.image.version=$keycloak
CONTAINERFILE
build keycloak "$keycloak" "$work/keycloak"
podman tag "continuum/keycloak:$keycloak" "continuum/keycloak:$keycloak-$recipe"
