#!/usr/bin/env bash
# The NNUE pipeline, round by round:
#
#   1. generate self-play records with the current evaluation (round 1: the hand-crafted one);
#   2. train a net on them (`trainer train`);
#   3. play it against the current evaluation at equal nodes with an SPRT (`engine match`);
#   4. if H1 is accepted, copy it to data/nets/<variant>.nnue with a report
#      data/nets/<variant>.md (data, settings, losses, match, the commands to reproduce).
#
# With `all`, the four Persian sub-variants share one net per round: it is trained on all four
# variants' records (they share the board), written once per variant, and each variant's copy
# must pass its own match. With one variant, the net learns from that variant's records only.
# Round 2 regenerates with the round-1 nets, trains on both rounds' data and plays the new nets
# against the round-1 nets, and so on.
#
# Usage: scripts/pipeline.sh VARIANT|all [ROUNDS]
# Settings (environment variables, defaults in brackets):
#   GAMES [30000]      self-play games per variant and round   SP_NODES [1000] nodes per self-play move
#   HIDDEN [256]       hidden neurons              EPOCHS [8]       training epochs
#   WDL [0]            weight of the game result   LR [0.002]       initial learning rate
#   MATCH_NODES [2000] nodes per match move        MATCH_GAMES [2000] most games per match
#   SPRT [0,50]        elo0,elo1                   THREADS [all cores] threads everywhere
#   SEED [1]           self-play seed (round r uses SEED + r - 1)
#   DATA_DIR [data/selfplay]  RUNS_DIR [runs]      INSTALL [1]      0: never copy to data/nets
#   BUILD [1]          0: use the binaries in target/release as they are
#   SKIP_GEN [0]       1: use the records already in DATA_DIR (e.g. generated elsewhere)
#   RAY [0]            1: generate through the Ray driver (scripts/ray/selfplay.py, docs/scale-out.md)
#                      on RAY_ADDRESS's cluster, else on a local Ray; RAY_PYTHON [python3] has Ray.
#                      Nets given to self-play must be at the same path on every worker.
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ $# -lt 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi

ROUNDS="${2:-1}"
GAMES="${GAMES:-30000}"
SP_NODES="${SP_NODES:-1000}"
HIDDEN="${HIDDEN:-256}"
EPOCHS="${EPOCHS:-8}"
WDL="${WDL:-0}"
LR="${LR:-0.002}"
MATCH_NODES="${MATCH_NODES:-2000}"
MATCH_GAMES="${MATCH_GAMES:-2000}"
SPRT="${SPRT:-0,50}"
THREADS="${THREADS:-$(nproc)}"
SEED="${SEED:-1}"
DATA_DIR="${DATA_DIR:-data/selfplay}"
RUNS_DIR="${RUNS_DIR:-runs}"
INSTALL="${INSTALL:-1}"
BUILD="${BUILD:-1}"
SKIP_GEN="${SKIP_GEN:-0}"
RAY="${RAY:-0}"
RAY_PYTHON="${RAY_PYTHON:-python3}"

if [[ "$1" == "all" ]]; then
    VARIANTS=(celtic-citadel persian-princess egyptian-eye oriental-omega)
    JOINT=1
else
    VARIANTS=("$1")
    JOINT=0
fi

if [[ "$BUILD" == 1 ]]; then
    cargo build --release -p engine -p trainer
fi
TRAINER=target/release/trainer
ENGINE=target/release/engine

declare -A current       # variant -> the evaluation to beat and to generate with
for v in "${VARIANTS[@]}"; do current[$v]=hce; done
data_args=()

report() { # variant round run net match_file
    local variant=$1 round=$2 run=$3 net=$4 match=$5 previous=$6
    echo "# $variant.nnue"
    echo
    echo "Round $round of \`scripts/pipeline.sh $( ((JOINT)) && echo all || echo "$variant")\`, accepted $(date -u +%Y-%m-%d)."
    echo "Net: \`$net\` of the run \`$run\`."
    echo
    echo "## Data"
    echo
    for d in "${data_args[@]}"; do
        [[ "$d" == --data ]] && continue
        local v shards
        v=$(sed -n 's/.*"variant": "\(.*\)".*/\1/p' "$d/run.json" | head -1)
        shards=$(find "$d" -maxdepth 1 -name 'shard_*.bin' | wc -l)
        echo "- \`$d\`: $("$TRAINER" data stats "$d" 2>/dev/null | head -1)"
        echo "  (\`trainer selfplay --variant $v --games $((shards * 100)) $(sed -n 's/.*"nodes": \([0-9]*\).*/--nodes \1/p' "$d/run.json") --net $(sed -n 's/.*"eval": "\(.*\)".*/\1/p' "$d/run.json" | sed 's/^hand-crafted$/hce/') $(sed -n 's/.*"seed": \([0-9]*\).*/--seed \1/p' "$d/run.json") --out $d\`; settings in \`$d/run.json\`)"
    done
    echo
    echo "## Training"
    echo
    echo '```toml'
    cat "$run/config.toml"
    echo '```'
    echo
    echo "Loss per epoch (\`curves.csv\`):"
    echo
    echo '```'
    cat "$run/curves.csv"
    echo '```'
    echo
    echo "## Match against $previous at $MATCH_NODES nodes per move"
    echo
    echo '```'
    cat "$match"
    echo '```'
    echo
    echo "## Reproduce"
    echo
    echo "The self-play records come from the commands listed under Data (deterministic: the same"
    echo "settings give the same games). With them in place:"
    echo
    echo '```sh'
    echo "SKIP_GEN=1 HIDDEN=$HIDDEN EPOCHS=$EPOCHS WDL=$WDL LR=$LR MATCH_NODES=$MATCH_NODES MATCH_GAMES=$MATCH_GAMES SEED=$SEED \\"
    echo "    scripts/pipeline.sh $( ((JOINT)) && echo all || echo "$variant") $round"
    echo '```'
    echo
    echo "or everything, self-play included: \`GAMES=<games> SP_NODES=$SP_NODES ... scripts/pipeline.sh ...\`"
    echo "(the pipeline plays the same number of games in every variant)."
}

for ((round = 1; round <= ROUNDS; round++)); do
    seed=$((SEED + round - 1))
    for variant in "${VARIANTS[@]}"; do
        data="$DATA_DIR/r${round}-${variant}"
        if [[ "$SKIP_GEN" != 1 ]]; then
            echo "== round $round, $variant: generate ($GAMES games, $SP_NODES nodes, eval ${current[$variant]})"
            if [[ "$RAY" == 1 ]]; then
                "$RAY_PYTHON" scripts/ray/selfplay.py --trainer "$TRAINER" --games "$GAMES" --out "$data" \
                    -- --variant "$variant" --nodes "$SP_NODES" --net "${current[$variant]}" --seed "$seed"
            else
                "$TRAINER" selfplay --variant "$variant" --games "$GAMES" --nodes "$SP_NODES" \
                    --net "${current[$variant]}" --threads "$THREADS" --seed "$seed" --out "$data"
            fi
        fi
        data_args+=(--data "$data")
    done

    if ((JOINT)); then
        run="$RUNS_DIR/r${round}-all"
        also=()
        for v in "${VARIANTS[@]:1}"; do also+=(--also-variant "$v"); done
        train_cmd=("$TRAINER" train --variant "${VARIANTS[0]}" "${also[@]}" "${data_args[@]}" --out "$run")
    else
        run="$RUNS_DIR/r${round}-${VARIANTS[0]}"
        train_cmd=("$TRAINER" train --variant "${VARIANTS[0]}" "${data_args[@]}" --out "$run")
    fi
    echo "== round $round: train ($run)"
    if [[ -f "$run/checkpoint.bin" && ! -f "$run/summary.json" ]]; then
        "$TRAINER" train --resume --out "$run" --threads "$THREADS"
    elif [[ ! -f "$run/summary.json" ]]; then
        "${train_cmd[@]}" --hidden "$HIDDEN" --epochs "$EPOCHS" --wdl "$WDL" --lr "$LR" --threads "$THREADS"
    fi

    for variant in "${VARIANTS[@]}"; do
        net="$run/net.nnue"
        [[ "$variant" != "${VARIANTS[0]}" ]] && net="$run/net.$variant.nnue"
        previous="${current[$variant]}"
        match="$run/match.$variant.txt"
        echo "== round $round, $variant: match against $previous"
        rm -f "$run/match.$variant.pgn"
        "$ENGINE" match --variant "$variant" --games "$MATCH_GAMES" --sprt "$SPRT" \
            --first "name=r${round},nodes=$MATCH_NODES,eval=$net" \
            --second "name=$([[ $previous == hce ]] && echo hce || echo "r$((round - 1))"),nodes=$MATCH_NODES,eval=$previous" \
            --concurrency "$THREADS" --seed "$seed" --pgn "$run/match.$variant.pgn" --quiet | tee "$match"
        if ! grep -q "H1 accepted" "$match"; then
            echo "== round $round, $variant: not proven stronger; $previous stays"
            continue
        fi
        current[$variant]="$net"
        if [[ "$INSTALL" == 1 ]]; then
            mkdir -p data/nets
            cp "$net" "data/nets/$variant.nnue"
            report "$variant" "$round" "$run" "$net" "$match" "$previous" > "data/nets/$variant.md"
            echo "== round $round, $variant: installed data/nets/$variant.nnue (report: data/nets/$variant.md)"
        fi
    done
done
