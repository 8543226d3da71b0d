#!/usr/bin/env bash
# Generates self-play training data for one variant or all four Persian ones, then validates the
# shards and prints their statistics. Interrupted runs continue where they stopped when the same
# command is run again (see docs/training.md).
#
# Usage: scripts/selfplay.sh VARIANT|all GAMES [trainer selfplay options...]
#   scripts/selfplay.sh persian-princess 1000
#   scripts/selfplay.sh all 5000 --nodes 2000 --net hce
# Output: data/selfplay/<variant>/ unless --out is given (only with a single variant).
set -euo pipefail

if [[ $# -lt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi

variant_arg=$1
games=$2
shift 2

if [[ "$variant_arg" == "all" ]]; then
    variants=(celtic-citadel persian-princess egyptian-eye oriental-omega)
    for a in "$@"; do
        if [[ "$a" == "--out" || "$a" == "-o" || "$a" == --out=* ]]; then
            echo "selfplay.sh: --out cannot be used with 'all' (each variant has its own directory)" >&2
            exit 2
        fi
    done
else
    variants=("$variant_arg")
fi

cd "$(dirname "$0")/.."
cargo build --release -p trainer
trainer=./target/release/persian-trainer

for v in "${variants[@]}"; do
    out="data/selfplay/$v"
    next=""
    for a in "$@"; do
        if [[ -n "$next" ]]; then out="$a"; next=""; fi
        case "$a" in
            --out | -o) next=1 ;;
            --out=*) out="${a#--out=}" ;;
        esac
    done
    echo "== $v: $games games in $out"
    "$trainer" selfplay --variant "$v" --games "$games" "$@"
    "$trainer" data validate --variant "$v" "$out"
    "$trainer" data stats "$out"
done
