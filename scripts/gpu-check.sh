#!/usr/bin/env bash
# One round's training on a GPU against the CPU trainer, on the same data:
#
#   1. a smoke test: a few self-play games and three training steps on the GPU (stops here,
#      with status 2, when the GPU backend cannot start);
#   2. self-play records with the installed net, on every core, for SP_SECONDS (complete shards
#      only: a shard is written when its games are done);
#   3. the same training run twice, from the installed net: on the GPU (--device DEVICE
#      --ft FT) and on the CPU (--device cpu --ft sparse, every core);
#   4. both nets, their summaries (positions/s, losses) and the log in OUT_DIR.
#
# The two nets are then played against each other (`engine match ... --sprt`): trained on the
# same data with the same settings, they should be equal within noise.
#
# Usage: scripts/gpu-check.sh OUT_DIR
# Settings (environment variables, defaults in brackets):
#   TRAINER [target/release/persian-trainer]  a trainer built with --features wgpu (or cuda)
#   DEVICE [wgpu]       the GPU backend          FT [gather]   the GPU run's first-layer formulation
#   VARIANT [parsi]     NET [data/nets/VARIANT.nnue]  the net self-play uses and training starts from
#   SP_SECONDS [150]    self-play time           SP_NODES [1000] nodes per self-play move
#   EPOCHS [6]          LR [0.0005]              SEED [7]
#   WORK [/tmp/gpu-check]  where the records and runs go (large: not OUT_DIR)
set -uo pipefail

if [[ $# -ne 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
OUT_DIR=$1
TRAINER="${TRAINER:-target/release/persian-trainer}"
DEVICE="${DEVICE:-wgpu}"
FT="${FT:-gather}"
VARIANT="${VARIANT:-parsi}"
NET="${NET:-data/nets/$VARIANT.nnue}"
SP_SECONDS="${SP_SECONDS:-150}"
SP_NODES="${SP_NODES:-1000}"
EPOCHS="${EPOCHS:-6}"
LR="${LR:-0.0005}"
SEED="${SEED:-7}"
WORK="${WORK:-/tmp/gpu-check}"

mkdir -p "$OUT_DIR" "$WORK"
LOG="$OUT_DIR/log.txt"
say() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$LOG"; }
run() { "$@" 2>&1 | tee -a "$LOG"; return "${PIPESTATUS[0]}"; }

say "machine: $(nproc) cores; $(nvidia-smi -L 2>/dev/null | head -1)"
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader -l 10 \
    > "$OUT_DIR/gpu-use.csv" 2>/dev/null &
MON=$!
trap 'kill $MON 2>/dev/null' EXIT

say "smoke test: self-play and three steps on $DEVICE"
rm -rf "$WORK/smoke" "$WORK/smoke-run"
run "$TRAINER" selfplay -v "$VARIANT" --games 8 --nodes 200 --net "$NET" --engine-plies 0 \
    --seed "$SEED" --out "$WORK/smoke" --quiet || { say "self-play failed"; exit 2; }
smoke() { # ft
    run "$TRAINER" train -v "$VARIANT" -d "$WORK/smoke" --init-from "$NET" --batch-size 1024 \
        --epochs 1 --max-steps 3 --device "$DEVICE" --ft "$1" --out "$WORK/smoke-run" --force
}
if ! smoke "$FT"; then
    say "--ft $FT failed on $DEVICE; trying --ft dense"
    FT=dense
    smoke dense || { say "the $DEVICE backend failed: stopping"; exit 2; }
fi

say "self-play: $VARIANT, $SP_NODES nodes per move, ${SP_SECONDS}s on every core"
DATA="$WORK/data"
rm -rf "$DATA"
timeout "$SP_SECONDS" "$TRAINER" selfplay -v "$VARIANT" --games 1000000 --nodes "$SP_NODES" \
    --net "$NET" --engine-plies 0 --seed "$SEED" --out "$DATA" --quiet >> "$LOG" 2>&1
find "$DATA" -name '*.tmp*' -delete
run "$TRAINER" data stats "$DATA"

train() { # name device ft
    say "training on $2 ($3)"
    run "$TRAINER" train -v "$VARIANT" -d "$DATA" --init-from "$NET" --lr "$LR" --epochs "$EPOCHS" \
        --seed "$SEED" --device "$2" --ft "$3" --out "$WORK/run-$1" --force \
        > "$WORK/train-$1.txt"
    cp "$WORK/run-$1/summary.json" "$OUT_DIR/summary-$1.json" 2>/dev/null
    local net
    net=$(sed -n 's/^  net  *//p' "$WORK/train-$1.txt" | tail -1)
    [[ -n "$net" && -f "$net" ]] && cp "$net" "$OUT_DIR/$1.nnue"
}
train gpu "$DEVICE" "$FT"
train cpu cpu sparse
say "done"
