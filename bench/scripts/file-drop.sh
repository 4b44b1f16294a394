#!/usr/bin/env bash
# Issue 15 item 7 (file half): 10,000 files dropped on one gateway within a minute (written as .part, renamed),
# read off the broker as the engine reads them: delivered / lost / duplicates, p50/p99 rename -> event, gateway heap.
# Usage: bench/scripts/file-drop.sh [files] [spread-ms] [stable-seconds]    (broker: the machine's Mosquitto, else embedded)
set -euo pipefail
cd "$(dirname "$0")/../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; export PATH="$JAVA_HOME/bin:$PATH"
uptime
mvn -B -q -o -pl edge-gateway -am verify -Dtest=FileDropProbe -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=NoSuchIT -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dbench.files="${1:-10000}" -Dbench.spread-ms="${2:-60000}" -Dbench.stable-seconds="${3:-1}" 2>&1 | grep '\[file-drop\]'
uptime
