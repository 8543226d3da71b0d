#!/usr/bin/env bash
# The NNUE pipeline, round by round, unattended and resumable:
#
#   1. generate self-play records with the current evaluation (round 1: the hand-crafted one);
#   2. train a net on them (`trainer train`);
#   3. play it against the current evaluation at equal nodes with an SPRT (`engine match`);
#   4. if H1 is accepted, copy it to data/nets/<variant>.nnue with a report
#      data/nets/<variant>.md (data, settings, losses, match, the commands to reproduce);
#   5. optionally (HCE_GAMES > 0) play the new net against the hand-crafted evaluation, a fixed
#      number of games, for its Elo;
#   6. append a line per variant to the rounds table of docs/strength.md.
#
# With `all`, the four Persian sub-variants share one net per round: it is trained on all four
# variants' records (they share the board), written once per variant, and each variant's copy
# must pass its own match. With one variant, the net learns from that variant's records only.
# Round r generates with the nets of round r-1 and trains on the records of the last WINDOW rounds
# (a window: the newest games are the best play, the older ones keep it from forgetting); with
# INIT=1 (the default from round 2 on) it starts from the current net's weights at LR_LATER.
#
# Run it again with the same settings after an interruption: finished steps are skipped (the
# self-play directory already holds its games, the run its summary.json, the match its verdict).
#
# Usage: scripts/pipeline.sh VARIANT|all [ROUNDS]
# Settings (environment variables, defaults in brackets):
#   GAMES [30000]      self-play games per variant and round   SP_NODES [1000] nodes per self-play move
#   GAMES_BY_VARIANT [""]  other numbers of games for some variants, e.g.
#                      "egyptian-eye=20000,oriental-omega=20000" (the rest play GAMES)
#   HIDDEN [256]       hidden neurons              EPOCHS [8]       training epochs
#   WDL [0]            weight of the game result   LR [0.002]       initial learning rate (round 1)
#   LR_LATER [0.0005]  learning rate of rounds that start from a net (INIT=1)
#   INIT [1]           1: rounds >= 2 start from the current net's weights; 0: from scratch
#   INIT_FROM [""]     the weights (.nnue or a run's checkpoint.bin) the first round's training
#                      starts from instead of the current net's, e.g. to train a second candidate
#                      of a round from the same weights with other settings (RUNS_DIR apart)
#   NAME [r<round>]    the new nets' name in the matches, e.g. r4b for a second candidate
#   PREVIOUS_NAME [""] the installed nets' name in the first round's matches (e.g. r4 for a
#                      second candidate of round 4, which plays the first where it was installed);
#                      by default r<n>, n the round their report data/nets/<variant>.md names
#                      (nets of different rounds can be installed side by side), else "installed"
#   WINDOW [2]         rounds of records to train on (this round's and the WINDOW-1 before it)
#   FIRST_ROUND [1]    the round to start at; from round 2 on the current nets are those in
#                      data/nets (e.g. FIRST_ROUND=2 continues from the installed nets)
#   MATCH_NODES [2000] nodes per match move        MATCH_GAMES [2000] most games per match
#   SPRT [0,50]        elo0,elo1                   THREADS [all cores] threads everywhere
#   HCE_GAMES [0]      games of the extra fixed match of each accepted net against hce (0: none)
#   SEED [1]           self-play seed (round r uses SEED + r - 1)
#   DATA_DIR [data/selfplay]  RUNS_DIR [runs]      INSTALL [1]      0: never copy to data/nets
#   STRENGTH [docs/strength.md]  where the round lines go ("" for nowhere)
#   BUILD [1]          0: use the binaries in BIN_DIR as they are
#   BIN_DIR [target/release]  where the trainer and engine binaries are (a copy keeps a long run
#                      safe from rebuilds)
#   SKIP_GEN [0]       1: use the records already in DATA_DIR (e.g. generated elsewhere)
#   RAY [0]            1: generate and play the SPRT matches through the Ray drivers
#                      (scripts/ray/selfplay.py, scripts/ray/match.py, docs/scale-out.md) on
#                      RAY_ADDRESS's cluster, else on a local Ray; RAY_PYTHON [python3] has Ray.
#                      Nets given to self-play and matches must be at the same path on every worker.
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
LR_LATER="${LR_LATER:-0.0005}"
INIT="${INIT:-1}"
WINDOW="${WINDOW:-2}"
FIRST_ROUND="${FIRST_ROUND:-1}"
HCE_GAMES="${HCE_GAMES:-0}"
STRENGTH="${STRENGTH-docs/strength.md}"
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
GAMES_BY_VARIANT="${GAMES_BY_VARIANT:-}"
INIT_FROM="${INIT_FROM:-}"
[[ -z "$INIT_FROM" || -f "$INIT_FROM" ]] || { echo "INIT_FROM: $INIT_FROM is not a file" >&2; exit 1; }

# The number of self-play games of a variant: its entry in GAMES_BY_VARIANT, else GAMES.
games_of() {
    local entry
    for entry in ${GAMES_BY_VARIANT//,/ }; do
        if [[ "${entry%%=*}" == "$1" ]]; then
            echo "${entry#*=}"
            return
        fi
    done
    echo "$GAMES"
}

if [[ "$1" == "all" ]]; then
    VARIANTS=(celtic-citadel persian-princess egyptian-eye oriental-omega)
    JOINT=1
else
    VARIANTS=("$1")
    JOINT=0
fi

for entry in ${GAMES_BY_VARIANT//,/ }; do
    [[ "$entry" =~ ^[a-z0-9-]+=[0-9]+$ ]] || { echo "GAMES_BY_VARIANT: '$entry' is not VARIANT=GAMES" >&2; exit 1; }
    [[ " ${VARIANTS[*]} " == *" ${entry%%=*} "* ]] || { echo "GAMES_BY_VARIANT: ${entry%%=*} is not a variant of this run (${VARIANTS[*]})" >&2; exit 1; }
done

if [[ "$BUILD" == 1 ]]; then
    cargo build --release -p engine -p trainer
fi
BIN_DIR="${BIN_DIR:-target/release}"
TRAINER="$BIN_DIR/persian-trainer"
ENGINE="$BIN_DIR/persian-engine"

declare -A current       # variant -> the evaluation to beat and to generate with
declare -A current_name  # variant -> its name in the matches
for v in "${VARIANTS[@]}"; do
    current[$v]=hce
    current_name[$v]=hce
    if ((FIRST_ROUND > 1)); then
        [[ -f "data/nets/$v.nnue" ]] || { echo "FIRST_ROUND=$FIRST_ROUND: data/nets/$v.nnue is missing" >&2; exit 1; }
        current[$v]="data/nets/$v.nnue"
        installed_round=$(sed -n 's/^Round \([0-9][0-9]*\) of .*/\1/p' "data/nets/$v.md" 2>/dev/null | head -1 || true)
        current_name[$v]="${PREVIOUS_NAME:-${installed_round:+r$installed_round}}"
        current_name[$v]="${current_name[$v]:-installed}"
    fi
done
data_args=()

# The verdict of a finished match file ("" while it has none).
verdict() { [[ -f "$1" ]] && grep -o "H[01] accepted\|inconclusive" "$1" | tail -1 || true; }

# One line of the rounds table in $STRENGTH: round, variant, games, SPRT, Elo vs previous and hce.
strength_line() { # round variant match hce_match installed
    [[ -z "$STRENGTH" ]] && return 0
    local elo hce="-"
    elo=$(sed -n 's/^Elo difference: //p' "$3" | head -1 | sed 's/95% interval //')
    [[ -n "$4" && -f "$4" ]] && hce=$(sed -n 's/^Elo difference: //p' "$4" | head -1 | sed 's/95% interval //')
    if ! grep -q "^<!-- rounds -->" "$STRENGTH"; then
        {
            echo
            echo "## Rounds of scripts/pipeline.sh"
            echo
            echo "One line per round and variant, appended by the pipeline. Matches at equal nodes; Elo with its 95% interval."
            echo
            echo "| date | round | variant | self-play | SPRT vs previous (W/D/L) | Elo vs previous | Elo vs hce | installed |"
            echo "|---|---|---|---|---|---|---|---|"
            echo "<!-- rounds -->"
        } >> "$STRENGTH"
    fi
    local wdl line
    wdl=$(sed -n 's|^W/D/L: \([0-9/]*\).*|\1|p' "$3" | head -1)
    line="| $(date -u +%Y-%m-%d) | $1${NAME:+ ($NAME)} | $2 | $(games_of "$2") games, $SP_NODES nodes | $(verdict "$3") ($wdl) | $elo | $hce | $5 |"
    # Insert before the marker so the table stays one table.
    awk -v line="$line" '/^<!-- rounds -->$/ { print line } { print }' "$STRENGTH" > "$STRENGTH.tmp" && mv "$STRENGTH.tmp" "$STRENGTH"
}

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
        # run.json's settings are indented by four spaces (the engine-plies ones by six); its
        # eval reads "hand-crafted" or "NNUE (<file>, <description>)".
        local nodes eval seed
        nodes=$(sed -n 's/^    "nodes": \([0-9]*\),*$/\1/p' "$d/run.json" | head -1)
        eval=$(sed -n 's/^    "eval": "\(.*\)",*$/\1/p' "$d/run.json" | head -1 | sed -e 's/^hand-crafted$/hce/' -e 's/^NNUE (\([^,]*\),.*/\1/')
        seed=$(sed -n 's/^    "seed": \([0-9]*\),*$/\1/p' "$d/run.json" | head -1)
        echo "  (\`trainer selfplay --variant $v --games $((shards * 100)) --nodes $nodes --net $eval --seed $seed --out $d\`"
        [[ "$eval" != hce ]] && echo "  with \`$eval\` as it was then, the net of the round before; settings in \`$d/run.json\`)" \
            || echo "  settings in \`$d/run.json\`)"
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
    echo "SKIP_GEN=1 HIDDEN=$HIDDEN EPOCHS=$EPOCHS WDL=$WDL LR=$LR LR_LATER=$LR_LATER INIT=$INIT WINDOW=$WINDOW ${INIT_FROM:+INIT_FROM=$INIT_FROM }RUNS_DIR=$RUNS_DIR \\"
    echo "    FIRST_ROUND=$FIRST_ROUND MATCH_NODES=$MATCH_NODES MATCH_GAMES=$MATCH_GAMES SEED=$SEED \\"
    echo "    scripts/pipeline.sh $( ((JOINT)) && echo all || echo "$variant") $round"
    echo '```'
    echo
    echo "or everything, self-play included: \`GAMES=$GAMES${GAMES_BY_VARIANT:+ GAMES_BY_VARIANT=$GAMES_BY_VARIANT} SP_NODES=$SP_NODES ... scripts/pipeline.sh ...\`."
}

for ((round = FIRST_ROUND; round <= ROUNDS; round++)); do
    seed=$((SEED + round - 1))
    for variant in "${VARIANTS[@]}"; do
        data="$DATA_DIR/r${round}-${variant}"
        games=$(games_of "$variant")
        if [[ "$SKIP_GEN" != 1 ]]; then
            echo "== round $round, $variant: generate ($games games, $SP_NODES nodes, eval ${current[$variant]})"
            if [[ "$RAY" == 1 ]]; then
                "$RAY_PYTHON" scripts/ray/selfplay.py --trainer "$TRAINER" --games "$games" --out "$data" \
                    -- --variant "$variant" --nodes "$SP_NODES" --net "${current[$variant]}" --seed "$seed"
            else
                "$TRAINER" selfplay --variant "$variant" --games "$games" --nodes "$SP_NODES" \
                    --net "${current[$variant]}" --threads "$THREADS" --seed "$seed" --out "$data"
            fi
        fi
    done
    # The window: this round's records and those of the WINDOW-1 rounds before it that exist.
    data_args=()
    for ((r = round - WINDOW + 1; r <= round; r++)); do
        ((r < 1)) && continue
        for variant in "${VARIANTS[@]}"; do
            [[ -d "$DATA_DIR/r${r}-${variant}" ]] && data_args+=(--data "$DATA_DIR/r${r}-${variant}")
        done
    done

    init=()
    lr="$LR"
    if [[ -n "$INIT_FROM" && "$round" == "$FIRST_ROUND" ]]; then
        init=(--init-from "$INIT_FROM")
        lr="$LR_LATER"
    elif [[ "$INIT" == 1 && "${current[${VARIANTS[0]}]}" != hce ]]; then
        init=(--init-from "${current[${VARIANTS[0]}]}")
        lr="$LR_LATER"
    fi
    if ((JOINT)); then
        run="$RUNS_DIR/r${round}-all"
        also=()
        for v in "${VARIANTS[@]:1}"; do also+=(--also-variant "$v"); done
        train_cmd=("$TRAINER" train --variant "${VARIANTS[0]}" "${also[@]}" "${data_args[@]}" "${init[@]}" --out "$run")
    else
        run="$RUNS_DIR/r${round}-${VARIANTS[0]}"
        train_cmd=("$TRAINER" train --variant "${VARIANTS[0]}" "${data_args[@]}" "${init[@]}" --out "$run")
    fi
    echo "== round $round: train ($run${init:+, from ${init[1]}}, lr $lr)"
    if [[ -f "$run/checkpoint.bin" && ! -f "$run/summary.json" ]]; then
        "$TRAINER" train --resume --out "$run" --threads "$THREADS"
    elif [[ ! -f "$run/summary.json" ]]; then
        "${train_cmd[@]}" --hidden "$HIDDEN" --epochs "$EPOCHS" --wdl "$WDL" --lr "$lr" --threads "$THREADS"
    fi

    for variant in "${VARIANTS[@]}"; do
        net="$run/net.nnue"
        [[ "$variant" != "${VARIANTS[0]}" ]] && net="$run/net.$variant.nnue"
        previous="${current[$variant]}"
        previous_name="${current_name[$variant]}"
        match="$run/match.$variant.txt"
        if [[ -n "$(verdict "$match")" ]]; then
            echo "== round $round, $variant: match already played ($(verdict "$match"))"
        else
            echo "== round $round, $variant: match against $previous"
            rm -f "$run/match.$variant.pgn"
            if [[ "$RAY" == 1 ]]; then
                "$RAY_PYTHON" scripts/ray/match.py --engine "$ENGINE" --games "$MATCH_GAMES" --sprt "$SPRT" \
                    --out "$run/match.$variant.ray" -- --variant "$variant" \
                    --first "name=${NAME:-r${round}},nodes=$MATCH_NODES,eval=$net" \
                    --second "name=$previous_name,nodes=$MATCH_NODES,eval=$previous" --seed "$seed" > /dev/null
                cp "$run/match.$variant.ray/summary.txt" "$match.part"
                cp "$run/match.$variant.ray/games.pgn" "$run/match.$variant.pgn"
            else
                "$ENGINE" match --variant "$variant" --games "$MATCH_GAMES" --sprt "$SPRT" \
                    --first "name=${NAME:-r${round}},nodes=$MATCH_NODES,eval=$net" \
                    --second "name=$previous_name,nodes=$MATCH_NODES,eval=$previous" \
                    --concurrency "$THREADS" --seed "$seed" --pgn "$run/match.$variant.pgn" --quiet > "$match.part"
            fi
            mv "$match.part" "$match"
            cat "$match"
        fi
        if [[ "$(verdict "$match")" != "H1 accepted" ]]; then
            echo "== round $round, $variant: not proven stronger; $previous stays"
            [[ -f "$run/logged.$variant" ]] || { strength_line "$round" "$variant" "$match" "" "no"; touch "$run/logged.$variant"; }
            continue
        fi
        current[$variant]="$net"
        current_name[$variant]="${NAME:-r${round}}"
        hce_match=""
        if ((HCE_GAMES > 0)) && [[ "$previous" != hce ]]; then
            hce_match="$run/hce.$variant.txt"
            if [[ ! -f "$hce_match" ]]; then
                echo "== round $round, $variant: $HCE_GAMES games against the hand-crafted evaluation"
                "$ENGINE" match --variant "$variant" --games "$HCE_GAMES" \
                    --first "name=${NAME:-r${round}},nodes=$MATCH_NODES,eval=$net" --second "name=hce,nodes=$MATCH_NODES,eval=hce" \
                    --concurrency "$THREADS" --seed "$seed" --quiet > "$hce_match.part"
                mv "$hce_match.part" "$hce_match"
                cat "$hce_match"
            fi
        fi
        if [[ "$INSTALL" == 1 ]]; then
            mkdir -p data/nets
            cp "$net" "data/nets/$variant.nnue"
            report "$variant" "$round" "$run" "$net" "$match" "$previous" > "data/nets/$variant.md"
            echo "== round $round, $variant: installed data/nets/$variant.nnue (report: data/nets/$variant.md)"
        fi
        [[ -f "$run/logged.$variant" ]] || {
            strength_line "$round" "$variant" "$match" "$hce_match" "$([[ $INSTALL == 1 ]] && echo yes || echo "no (INSTALL=0)")"
            touch "$run/logged.$variant"
        }
    done
done
