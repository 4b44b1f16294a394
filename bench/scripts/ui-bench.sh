#!/usr/bin/env bash
# Issue 16's web UI figures: GET /runs filtered over 100,000 runs in PostgreSQL (p50/p95/p99),
# the run list page and a run with a 2,000-item Map rendered in Debian's chromium (performance marks). Runs the
# engine's UiBench against the real engine (authentication off) and a fresh PostgreSQL database (PostgresResource: the
# machine's 127.0.0.1:5432 when it answers, else an embedded one). Prints lines starting with BENCH, and the load.
#   bench/scripts/ui-bench.sh [-Dui-bench.runs=100000] [-Dui-bench.requests=400]
# Needs: JAVA_HOME >= 21, Maven with the project's dependencies, /usr/bin/chromium (Debian's package).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" PATH="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin:$PATH"
log="$(mktemp -t continuum-ui-bench.XXXXXX.log)"
echo "load before: $(uptime)"
(cd "$root" && mvn -B -o -pl flow-engine/service -am verify -Dtest=UiBench -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=NoSuchIT -Dfailsafe.failIfNoSpecifiedTests=false -Dui-bench.enabled=true \
  "$@") >"$log" 2>&1 || { echo "bench failed; see $log" >&2; grep -E "BENCH|FAIL" "$log" >&2; exit 1; }
grep "BENCH" "$log"
echo "load after: $(uptime)"
ls -l "$root"/flow-engine/service/target/web-bundler/test/dist/static/bundle/ 2>/dev/null | awk '/app-/{print "bundle " $NF ": " $5 " bytes"}'
for f in "$root"/flow-engine/service/target/web-bundler/test/dist/static/bundle/app-*.js; do echo "bundle $(basename "$f") gzip: $(gzip -c "$f" | wc -c) bytes"; done
