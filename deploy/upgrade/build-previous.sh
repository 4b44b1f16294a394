#!/usr/bin/env bash
# Builds the engine of the previous release (the commit in deploy/upgrade/previous-release) for UpgradeIT, offline,
# in a temporary git worktree, and keeps it in
#   ${CONTINUUM_PREVIOUS_ENGINE_DIR:-${XDG_CACHE_HOME:-~/.cache}/continuum/previous-engine}/<commit>/quarkus-app
# Built once per commit: a second call finds it there and returns at once. Installs nothing into ~/.m2 (package,
# not install); needs the commit in this clone's history, and its dependencies in ~/.m2 (else Maven downloads them).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
# the machine's default java may be older than the 21 the build needs (CI runs this before ./continuum test)
. "$root/deploy/pick-java.sh"
pick_java
export PATH="$JAVA_HOME/bin:$PATH"
commit="$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$root/deploy/upgrade/previous-release" | grep -m1 .)"
cache="${CONTINUUM_PREVIOUS_ENGINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/continuum/previous-engine}"
target="$cache/$commit"
if [ -f "$target/quarkus-app/quarkus-run.jar" ]; then
  echo "previous engine: $target/quarkus-app/quarkus-run.jar (built before)"
  exit 0
fi
if ! git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "previous engine: commit $commit is not in this clone's history (a shallow clone? git fetch --unshallow)" >&2
  exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/continuum-previous.XXXXXX")"
cleanup() {
  git -C "$root" worktree remove --force "$work/src" >/dev/null 2>&1 || rm -rf "$work/src"
  git -C "$root" worktree prune
  rm -rf "$work"
}
trap cleanup EXIT
git -C "$root" worktree add --detach --quiet "$work/src" "$commit"
start=$(date +%s)
# Tests are neither compiled nor run (maven.test.skip), and the edge gateway's demo-model fetch (a test class, which
# the engine does not need) is skipped with them (skipDemoModel).
build() { (cd "$work/src" && mvn "$@" -q -B -pl flow-engine/service -am package -Dmaven.test.skip=true -DskipDemoModel=true); }
if ! build -o; then
  # a machine whose ~/.m2 lacks one of that commit's dependencies (a fresh CI machine) fetches it, installing nothing
  echo "previous engine: the offline build failed (above); building again with Maven's network access" >&2
  build
fi
mkdir -p "$cache"
rm -rf "$target.partial"
mkdir -p "$target.partial"
cp -r "$work/src/flow-engine/service/target/quarkus-app" "$target.partial/"
mv "$target.partial" "$target"
echo "previous engine: built $commit in $(( $(date +%s) - start )) s: $target/quarkus-app/quarkus-run.jar"
