#!/bin/bash
# A stand-in trainer that follows the checkpoint protocol: resumes from the newest complete checkpoint, one step
# every 0.2 s, a checkpoint every CKPT_EVERY steps (0: none), on SIGUSR1 saves and exits 85 (unless IGNORE_USR1=1),
# exits 0 at TOTAL steps. Rank 0 reports and checkpoints.
dir=$CONTINUUM_CHECKPOINT_DIR; mkdir -p "$dir"
step=0
last=$(ls "$dir" 2>/dev/null | grep -E '^ckpt-[0-9]+$' | sort | tail -1)
[ -n "$last" ] && step=$((10#${last#ckpt-}))
echo "start rank=$CONTINUUM_RANK world=$CONTINUUM_WORLD_SIZE step=$step gpus=$CUDA_VISIBLE_DEVICES attempt=$CONTINUUM_ATTEMPT"
save() {
  [ "$CONTINUUM_RANK" = 0 ] || return 0
  local name; name=$(printf 'ckpt-%012d' "$step")
  echo "$step" > "$dir/.tmp-$name" && mv "$dir/.tmp-$name" "$dir/$name"
}
stop=0
if [ "${IGNORE_USR1:-0}" = 1 ]; then trap '' USR1; else trap 'stop=1' USR1; fi
while [ "$step" -lt "${TOTAL:-100}" ]; do
  sleep 0.2
  step=$((step + 1))
  [ "$CONTINUUM_RANK" = 0 ] && echo "CONTINUUM_PROGRESS step=$step loss=$(awk "BEGIN{print 1/$step}")"
  if [ "${CKPT_EVERY:-0}" -gt 0 ] && [ $((step % CKPT_EVERY)) = 0 ]; then save; fi
  if [ "$stop" = 1 ]; then save; exit 85; fi
done
save
exit 0
