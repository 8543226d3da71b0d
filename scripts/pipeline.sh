#!/usr/bin/env bash
# The NNUE pipeline with its settings in environment variables: runs
# `persian-trainer pipeline` (docs/training.md, `persian-trainer pipeline --help`), which does the
# work: self-play, training, the SPRT match against the current net, installation with a report,
# the rounds table; resumable.
#
# Usage: scripts/pipeline.sh VARIANT|all [ROUNDS]   (ROUNDS: the last round, default FIRST_ROUND)
# Settings (environment variables; each is the command's flag of the same name, e.g. SP_NODES is
# --sp-nodes; unset ones take the command's defaults):
#   GAMES GAMES_BY_VARIANT SP_NODES HIDDEN BUCKETS KING_BUCKETS EPOCHS WDL LR LR_LATER INIT
#   INIT_FROM NAME PREVIOUS_NAME WINDOW FIRST_ROUND MATCH_NODES MATCH_GAMES SPRT THREADS HCE_GAMES
#   HCE_SEED TIME_GAMES MATCH_TC LADDER_GAMES LADDER_RUNGS LADDER_DIR FINE_TUNE_EPOCHS CALIBRATE
#   SEED DATA_DIR RUNS_DIR INSTALL STRENGTH ("" for none) SKIP_GEN RAY RAY_PYTHON BIN_DIR
# and BUILD [1]: 0 uses the binaries in BIN_DIR [target/release] as they are, 1 builds them first.
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi

if [[ "${BUILD:-1}" == 1 ]]; then
    cargo build --release -p engine -p trainer
fi
BIN_DIR="${BIN_DIR:-target/release}"

args=(pipeline --variants "$1" --bin-dir "$BIN_DIR")
[[ -n "${2:-}" ]] && args+=(--rounds "$2")
# name=--flag: the flag gets the variable's value when the variable is set and not empty.
for pair in GAMES=--games GAMES_BY_VARIANT=--games-by-variant SP_NODES=--sp-nodes HIDDEN=--hidden \
    BUCKETS=--buckets KING_BUCKETS=--king-buckets EPOCHS=--epochs WDL=--wdl LR=--lr LR_LATER=--lr-later INIT=--init INIT_FROM=--init-from \
    NAME=--name PREVIOUS_NAME=--previous-name WINDOW=--window FIRST_ROUND=--first-round \
    MATCH_NODES=--match-nodes MATCH_GAMES=--match-games SPRT=--sprt THREADS=--threads \
    HCE_GAMES=--hce-games HCE_SEED=--hce-seed TIME_GAMES=--time-games MATCH_TC=--match-tc \
    LADDER_GAMES=--ladder-games LADDER_RUNGS=--ladder-rungs LADDER_DIR=--ladder-dir \
    FINE_TUNE_EPOCHS=--fine-tune-epochs CALIBRATE=--calibrate \
    SEED=--seed DATA_DIR=--data-dir RUNS_DIR=--runs-dir INSTALL=--install RAY_PYTHON=--ray-python; do
    name="${pair%%=*}"
    if [[ -n "${!name:-}" ]]; then
        # --flag=value: a value may start with '-' (SPRT=-5,5).
        args+=("${pair#*=}=${!name}")
    fi
done
# STRENGTH="" means no rounds table, so a set but empty STRENGTH is passed on.
if [[ -n "${STRENGTH+set}" ]]; then
    args+=("--strength=$STRENGTH")
fi
[[ "${SKIP_GEN:-0}" == 1 ]] && args+=(--skip-gen)
[[ "${RAY:-0}" == 1 ]] && args+=(--ray)

exec "$BIN_DIR/persian-trainer" "${args[@]}"
