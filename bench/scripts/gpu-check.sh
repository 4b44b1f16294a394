#!/usr/bin/env bash
# Issue 35 item 4: is the gateway's CUDA path really used? Builds edge-gateway with -Pgpu (ONNX Runtime's
# onnxruntime_gpu, offline when it is already in ~/.m2), loads the demo model (579 kB OCR direction classifier,
# fetched by the build) with the GPU preferred and then on the CPU, and prints for each the execution provider
# really used (and why not CUDA), p50/p99 per inference over 1,000 runs, and the GPU readings the gateway's
# heartbeat carries (nvidia-smi), or "no GPU found: <reason>". Under 5 minutes; no arguments.
# Needs: JDK >= 21, Maven; for CUDA an NVIDIA GPU with its driver, CUDA 12 and cuDNN 9 on the library path.
# Usage: bench/scripts/gpu-check.sh        (BENCH_RUNS=N to change the 1,000)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${JAVA_HOME:-}" ] && [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; fi
if [ -n "${JAVA_HOME:-}" ]; then export PATH="$JAVA_HOME/bin:$PATH"; fi
start=$(date +%s)
offline=()
if [ -f "$HOME/.m2/repository/com/microsoft/onnxruntime/onnxruntime_gpu/1.28.0/onnxruntime_gpu-1.28.0.jar" ]; then
    offline=(-o)   # else Maven downloads the 742 MB jar first, which may take longer than the check
fi
echo "[gpu-check] $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load:$(uptime | sed 's/.*load average://')"
log=edge-gateway/target/gpu-check.log
mkdir -p edge-gateway/target
if ! mvn -B -q "${offline[@]}" -Pgpu -pl edge-gateway -am test -Dtest=GpuCheckProbe -Dsurefire.failIfNoSpecifiedTests=false \
        -Dbench.runs="${BENCH_RUNS:-1000}" >"$log" 2>&1; then
    tail -40 "$log"
    echo "[gpu-check] FAILED after $(( $(date +%s) - start )) s (whole log: $log)"
    exit 1
fi
# ONNX Runtime's own log line names a CUDA library it could not load
grep -E '\[gpu-check\]|Failed to load library' "$log" | sed 's/\x1b\[[0-9;]*m//g' | sed 's#^.*\(Failed to load library\)#[gpu-check] ONNX Runtime: \1#'
echo "[gpu-check] took $(( $(date +%s) - start )) s (build with -Pgpu and both runs), load:$(uptime | sed 's/.*load average://')"
