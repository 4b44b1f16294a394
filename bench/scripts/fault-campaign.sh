#!/usr/bin/env bash
# The fault campaign of issue 18 C: runs the campaign tests with the long settings and prints their table, which it
# also writes into docs/reliability.md (between the campaign markers). The same tests run short in CI (mvn verify).
#   bench/scripts/fault-campaign.sh [--runs 200] [--kills 1000] [--minutes M] [--seed N] [--pg-runs 60] [--kills-only] [--no-docs]
# --minutes ends the kills after M minutes (the runs still all start, spread over that time) and reports how many
# kills happened; --kills-only runs only the engine-kill row and replaces only that row in docs/reliability.md.
# Rows: engine kills (two engines, SIGKILL of a random one at a random moment, restarted each time), PostgreSQL
# restarted under load (the test's own embedded cluster), broker restarted under inference load (the test's own
# embedded broker), a misbehaving provider (500s, garbage, silence, a provider that recovers), a transfer
# destination that fills up (a real 2 MiB tmpfs; needs root). Needs JAVA_HOME >= 21 and what the tests need
# (a PostgreSQL at 127.0.0.1:5432 or the embedded one, root for the tmpfs).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}" PATH="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin:$PATH"
runs=200 kills=1000 minutes=0 seed="$RANDOM$RANDOM" pg_runs=60 docs=1 kills_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --kills) kills="$2"; shift 2 ;;
    --minutes) minutes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --kills-only) kills_only=1; shift ;;
    --pg-runs) pg_runs="$2"; shift 2 ;;
    --no-docs) docs=0; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
cd "$root"
log="$(mktemp -t continuum-fault-campaign.XXXXXX.log)"
echo "campaign log: $log"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
cpu_before="$(awk '/^cpu / {print $2+$3+$4}' /proc/stat)"
started=$(date +%s)
status=0
modules=flow-engine/service,action-providers/transfer,action-providers/inference,edge-gateway
unit_tests='FullDestinationTest,BrokerRestartTest,EdgeLinkTest#shouldDeliverEveryResultOnceAndInOrder*'
its='EngineKillCampaignIT,PostgresRestartIT,MisbehavingProviderIT'
if [ "$kills_only" = 1 ]; then
  modules=flow-engine/service unit_tests=none its=EngineKillCampaignIT
fi
# -am: the reactor builds the engine jar and the providers from this checkout (never from ~/.m2)
mvn -B -o -pl "$modules" -am verify \
  -Dmaven.test.failure.ignore=true -Dtest="$unit_tests" -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="$its" -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dcontinuum.campaign.runs="$runs" -Dcontinuum.campaign.kills="$kills" -Dcontinuum.campaign.minutes="$minutes" \
  -Dcontinuum.campaign.seed="$seed" -Dcontinuum.campaign.pg-runs="$pg_runs" >>"$log" 2>&1 || status=$?
grep -q '<<< FAIL' "$log" && status=1
wall=$(( $(date +%s) - started ))
cpu_s=$(( ($(awk '/^cpu / {print $2+$3+$4}' /proc/stat) - cpu_before) / $(getconf CLK_TCK) ))
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

# the tests' CAMPAIGN lines as table rows; the JVM output of surefire/failsafe is in the log
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
table="| fault | load | outcome |
|---|---|---|"
while IFS= read -r line; do
  kind="$(awk '{print $2}' <<<"$line")"
  case "$kind" in
    engine-kills) row="| SIGKILL of a random engine of two, restarted each time | $(field "$line" runs) runs of a 3-Action flow, $(field "$line" kills) kills of $(field "$line" planned_kills) planned ($(field "$line" kills_with_active_runs) with runs in flight) in $(field "$line" kill_s) s, $(field "$line" kills_per_min) a minute, seed $(field "$line" seed) | $(field "$line" succeeded)/$(field "$line" runs) SUCCEEDED; $(field "$line" effects) effects for $(field "$line" expected_effects) (run, Action) pairs; $(field "$line" problems) problems; $(field "$line" wall_s) s |" ;;
    postgres-restart) row="| PostgreSQL stopped (fast) and started again under load | $(field "$line" runs) runs, $(field "$line" active_at_stop) active at the stop, down $(field "$line" down_s) s | $(field "$line" succeeded)/$(field "$line" runs) SUCCEEDED; $(field "$line" effects)/$(field "$line" expected_effects) effects; $(field "$line" problems) problems; all finished $(field "$line" recovered_ms) ms after the restart; engines alive $(field "$line" engines_alive)/2 |" ;;
    broker-restart) row="| MQTT broker restarted under inference load | $(field "$line" actions) actions over $(field "$line" gateways) gateways, $(field "$line" in_flight) tasks in flight at the restart | $(field "$line" succeeded)/$(field "$line" actions) SUCCEEDED; tasks run $(field "$line" tasks_run); results lost $(field "$line" lost), duplicated $(field "$line" duplicated) |" ;;
    misbehaving-provider) row="| provider answering 500 / garbage / nothing / 503 twice then OK, Retry MaxAttempts 2 | one run each | ${line#*misbehaving-provider } |" ;;
    gateway-offline-day) row="| edge gateway offline for a day on a moved clock (+24 h) | $(field "$line" tasks) tasks, $(field "$line" held_offline) of them run offline | results $(field "$line" results)/$(field "$line" tasks), tasks run $(field "$line" run), first arrivals in order: $(field "$line" in_order); $(field "$line" copies) copies answering repeated tasks (ignored by the cloud) |" ;;
    transfer-full) row="| transfer into a 2 MiB tmpfs (real ENOSPC) | $(field "$line" bytes) bytes | $(field "$line" status) with $(field "$line" code) |" ;;
    *) continue ;;
  esac
  table="$table
$row"
done < <(grep -ho '^CAMPAIGN .*' "$log" | sort -u)
options="--runs $runs --kills $kills --minutes $minutes --seed $seed --pg-runs $pg_runs$([ "$kills_only" = 1 ] && echo ' --kills-only')"
summary="$(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD): \`bench/scripts/fault-campaign.sh $options\`, ${wall} s wall, ${cpu_s} s CPU (whole machine), load average $load_before before, $load_after after; tests exit status $status"
printf '%s\n\n%s\n' "$table" "$summary"
if [ "$docs" = 1 ]; then
  python3 - "$root/docs/reliability.md" "$table" "$summary" "$kills_only" <<'PY'
import sys
path, table, summary, kills_only = sys.argv[1:]
text = open(path).read()
start, end = "<!-- campaign:start -->", "<!-- campaign:end -->"
head, rest = text.split(start, 1)
block, tail = rest.split(end, 1)
if kills_only == "1":
    # only the engine-kill row is new: it replaces the first row of the kept table, its summary goes first
    row = [line for line in table.splitlines() if line.startswith("| SIGKILL")]
    if not row:
        sys.exit("no engine-kill row in the campaign log: docs/reliability.md left as it was")
    lines = block.strip("\n").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("| SIGKILL"))
    lines[first:first + 1] = row
    notes = next(i for i, line in enumerate(lines) if i > first and not line.startswith("|"))
    lines.insert(notes + 1, "Engine-kill row: " + summary + ".")
    block = "\n".join(lines)
else:
    block = table + "\n\n" + summary
open(path, "w").write(head + start + "\n" + block + "\n" + end + tail)
PY
  echo "written into docs/reliability.md"
fi
exit "$status"
