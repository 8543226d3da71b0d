#!/usr/bin/env bash
# The NNUE pipeline for one Persian Chess sub-variant (or all four), round by round:
#
#   1. generate self-play records with the current evaluation (round 1: the hand-crafted one);
#   2. train a net on them (`trainer train`);
#   3. play it against the current evaluation at equal nodes with an SPRT (`engine match`);
#   4. if H1 is accepted, copy it to data/nets/<variant>.nnue with a report
#      data/nets/<variant>.md (data, settings, losses, match, the commands to reproduce).
#
# Round 2 regenerates with the round-1 net, trains on both rounds' data and plays the new net
# against the round-1 net, and so on.
#
# Usage: scripts/pipeline.sh VARIANT|all [ROUNDS]
# Settings (environment variables, defaults in brackets):
#   GAMES [30000]      self-play games per round        SP_NODES [1000]  nodes per self-play move
#   HIDDEN [256]       hidden neurons                    EPOCHS [20]      training epochs
#   WDL [0.3]          weight of the game result         LR [0.001]       initial learning rate
#   MATCH_NODES [2000] nodes per move in the match      MATCH_GAMES [2000] most match games
#   SPRT [0,50]        elo0,elo1                         THREADS [all cores] threads everywhere
#   SEED [1]           seed of the self-play openings (round r uses SEED + r - 1)
#   DATA_DIR [data/selfplay]  RUNS_DIR [runs]            INSTALL [1]      0: never copy to data/nets
#   BUILD [1]          0: use the binaries in target/release as they are
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi

VARIANTS=("$1")
if [[ "$1" == "all" ]]; then
    VARIANTS=(celtic-citadel persian-princess egyptian-eye oriental-omega)
fi
ROUNDS="${2:-1}"
GAMES="${GAMES:-30000}"
SP_NODES="${SP_NODES:-1000}"
HIDDEN="${HIDDEN:-256}"
EPOCHS="${EPOCHS:-20}"
WDL="${WDL:-0.3}"
LR="${LR:-0.001}"
MATCH_NODES="${MATCH_NODES:-2000}"
MATCH_GAMES="${MATCH_GAMES:-2000}"
SPRT="${SPRT:-0,50}"
THREADS="${THREADS:-$(nproc)}"
SEED="${SEED:-1}"
DATA_DIR="${DATA_DIR:-data/selfplay}"
RUNS_DIR="${RUNS_DIR:-runs}"
INSTALL="${INSTALL:-1}"
BUILD="${BUILD:-1}"

if [[ "$BUILD" == 1 ]]; then
    cargo build --release -p engine -p trainer
fi
TRAINER=target/release/trainer
ENGINE=target/release/engine

for variant in "${VARIANTS[@]}"; do
    current="hce"          # the evaluation to beat and to generate with
    data_args=()
    for ((round = 1; round <= ROUNDS; round++)); do
        tag="r${round}-${variant}"
        data="$DATA_DIR/$tag"
        run="$RUNS_DIR/$tag"
        seed=$((SEED + round - 1))
        echo "== $variant, round $round: generate ($GAMES games, $SP_NODES nodes, eval $current)"
        gen_cmd=("$TRAINER" selfplay --variant "$variant" --games "$GAMES" --nodes "$SP_NODES"
            --net "$current" --threads "$THREADS" --seed "$seed" --out "$data")
        "${gen_cmd[@]}"
        data_args+=(--data "$data")

        echo "== $variant, round $round: train"
        train_cmd=("$TRAINER" train --variant "$variant" "${data_args[@]}" --out "$run"
            --hidden "$HIDDEN" --epochs "$EPOCHS" --wdl "$WDL" --lr "$LR" --threads "$THREADS")
        if [[ -f "$run/checkpoint.bin" && ! -f "$run/summary.json" ]]; then
            "$TRAINER" train --resume --out "$run" --threads "$THREADS"
        elif [[ ! -f "$run/summary.json" ]]; then
            "${train_cmd[@]}"
        fi

        echo "== $variant, round $round: match against $current"
        match_cmd=("$ENGINE" match --variant "$variant" --games "$MATCH_GAMES" --sprt "$SPRT"
            --first "name=$tag,nodes=$MATCH_NODES,eval=$run/net.nnue"
            --second "name=$(basename "$current" .nnue),nodes=$MATCH_NODES,eval=$current"
            --concurrency "$THREADS" --seed "$seed" --pgn "$run/match.pgn" --quiet)
        rm -f "$run/match.pgn"
        "${match_cmd[@]}" | tee "$run/match.txt"
        if ! grep -q "H1 accepted" "$run/match.txt"; then
            echo "== $variant, round $round: the new net was not proven stronger; stopping here"
            break
        fi
        if [[ "$INSTALL" == 1 ]]; then
            mkdir -p data/nets
            cp "$run/net.nnue" "data/nets/$variant.nnue"
            {
                echo "# $variant.nnue"
                echo
                echo "Round $round of scripts/pipeline.sh, accepted $(date -u +%Y-%m-%d)."
                echo
                echo "## Data"
                echo
                for d in "${data_args[@]}"; do
                    [[ "$d" == --data ]] && continue
                    echo "- \`$d\`: $("$TRAINER" data stats "$d" 2>/dev/null | head -1)"
                done
                echo
                echo "## Training"
                echo
                echo '```'
                sed -n '1,200p' "$run/config.toml"
                echo '```'
                echo
                echo "Loss per epoch (\`curves.csv\`):"
                echo
                echo '```'
                cat "$run/curves.csv"
                echo '```'
                echo
                echo "## Match against $current at $MATCH_NODES nodes per move"
                echo
                echo '```'
                cat "$run/match.txt"
                echo '```'
                echo
                echo "## Reproduce"
                echo
                echo '```sh'
                echo "cargo build --release -p engine -p trainer"
                echo "GAMES=$GAMES SP_NODES=$SP_NODES HIDDEN=$HIDDEN EPOCHS=$EPOCHS WDL=$WDL LR=$LR MATCH_NODES=$MATCH_NODES SEED=$SEED scripts/pipeline.sh $variant $round"
                echo '```'
            } > "data/nets/$variant.md"
            echo "== $variant, round $round: installed data/nets/$variant.nnue (report: data/nets/$variant.md)"
        fi
        current="$run/net.nnue"
    done
done
