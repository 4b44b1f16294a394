#!/usr/bin/env bash
# base.sh [java|services]: builds a base from Debian packages alone: a minbase Debian (debootstrap), stripped of apt's
# lists and caches, documentation and locales, with the user continuum (10001) and the health probe.
#   java (default): continuum/base:<tag>, with a Java 21 JRE — the base of every Continuum image and of Keycloak's.
#   services: continuum/base-services:<tag>, with PostgreSQL 17 and Mosquitto and no Java — the base of the
#     continuum/postgres and continuum/mosquitto images (services.sh) that `podman kube play` runs beside the manifests.
# Debian 13 because Debian 12 packages no Java newer than 17. No RUN step and no registry: the root file system
# becomes a tar that `podman build` adds to an empty image, with every file time fixed.
# Prints the tag. Rebuilt only when this script or the health probe changes, or with CONTINUUM_REBUILD_BASE=1 (to take
# Debian's security updates).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
suite=trixie
flavour="${1:-java}"
case "$flavour" in
  java) packages=openjdk-21-jre-headless name=continuum/base ;;
  services) packages=postgresql-17,mosquitto name=continuum/base-services ;;
  *) echo "usage: base.sh [java|services]" >&2; exit 2 ;;
esac
tag="$suite-$(cat "$here/base.sh" "$here/health" | sha256sum | cut -c1-12)"
image="$name:$tag"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/continuum/images"

if podman image exists "$image" && [ -z "${CONTINUUM_REBUILD_BASE:-}" ]; then
  echo "$image"; exit 0
fi

# The Debian mirror apt uses on this machine (deb822 or one-line sources), unless CONTINUUM_DEBIAN_MIRROR names one.
mirror="${CONTINUUM_DEBIAN_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/{print $2}' | grep -m1 '/debian/*$' || true)}"
mirror="${mirror:-$(grep -h -o -m1 -E '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+/debian/? ' /etc/apt/sources.list 2>/dev/null | awk '{print $NF}' || true)}"
mirror="${mirror:-http://deb.debian.org/debian}"
command -v debootstrap >/dev/null || { echo "images: debootstrap is needed to build the base (apt-get install debootstrap)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache/debs"
echo "images: building $image from $packages on Debian $suite ($mirror)" >&2
debootstrap --variant=minbase --include="$packages" --cache-dir="$cache/debs" "$suite" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
rootfs="$work/rootfs"
chroot "$rootfs" dpkg-query -W -f '${Package}\t${Version}\n' > "$cache/${name#continuum/}-$tag.packages.tsv"

# What a running service never reads, and what differs from one build to the next (logs, caches, the machine id).
rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/debconf/*-old \
  "$rootfs"/var/lib/dpkg/*-old "$rootfs"/var/cache/ldconfig/aux-cache "$rootfs"/var/log/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/* \
  "$rootfs"/usr/share/lintian "$rootfs"/usr/share/bash-completion "$rootfs"/tmp/* "$rootfs"/var/tmp/*
# Nor these: glibc's iconv modules (Java converts charsets itself), and the class data archive for heaps over 32 GB
# (without compressed oops), which a JVM that needs it does without, starting slower.
rm -rf "$rootfs"/usr/lib/x86_64-linux-gnu/gconv "$rootfs"/usr/lib/jvm/java-21-openjdk-amd64/lib/server/classes_nocoops.jsa
: > "$rootfs/etc/machine-id"
# the cluster PostgreSQL's package makes on install: the image's entry point makes its own in the data volume
rm -rf "$rootfs"/var/lib/postgresql/17/main "$rootfs"/etc/postgresql/17/main
# the day of the last password change would otherwise be the build's day
sed -i -E 's/^([^:]*:[^:]*:)[0-9]+:/\1:/' "$rootfs/etc/shadow"

echo 'continuum:x:10001:10001:Continuum:/var/lib/continuum:/usr/sbin/nologin' >> "$rootfs/etc/passwd"
echo 'continuum:x:10001:' >> "$rootfs/etc/group"
echo 'continuum:!::0:99999:7:::' >> "$rootfs/etc/shadow"
install -d -o 10001 -g 10001 "$rootfs/var/lib/continuum"
install -m 0755 "$here/health" "$rootfs/usr/local/bin/continuum-health"

tar --sort=name --mtime=@0 --numeric-owner --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
  -C "$rootfs" -cf "$work/rootfs.tar" .
env='LANG=C.UTF-8'
[ "$flavour" != java ] || env="JAVA_HOME=/usr/lib/jvm/java-21-openjdk-amd64 $env"
printf 'FROM scratch\nADD rootfs.tar /\nENV %s\n' "$env" > "$work/Containerfile"
podman build -q --format docker --timestamp 0 -t "$image" -f "$work/Containerfile" "$work" >/dev/null
echo "$image"
