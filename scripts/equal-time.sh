#!/usr/bin/env bash
# Issue 34's result: this checkout's engine against the build the search work started from, at
# equal time, on each Persian sub-variant (docs/strength.md, "Today's build against the issue's
# start at equal time"). Both builds run as UCI programs and are given the same net, the
# variant's installed one (option.EvalFile=data/nets/<variant>.nnue), so only the engine differs.
#
# The base build is made once per commit in OUT_DIR/base-<commit> (its source exported with git
# archive, release profile); the new one is this checkout's release build, brought up to date.
# Each variant's games go to OUT_DIR/<variant>.txt (`engine match --results`), so a match
# stopped early can be read with `engine match-merge`; the summary of each lands in
# OUT_DIR/equal-time.txt. A folder that already holds a variant's results is refused (the files
# are appended to): each run takes a new OUT_DIR, and can reuse an earlier one's base build by
# copying its base-<commit> folder.
#
# Usage: scripts/equal-time.sh OUT_DIR
# Settings (environment variables, defaults in brackets):
#   BASE [2281ce0]     the commit to measure against (the last build before the issue's search work)
#   VARIANTS ["persian-princess oriental-omega celtic-citadel egyptian-eye"]
#   GAMES [1000]       games per variant (each opening with both colours)
#   TC [3+0.03]        the clock of both sides     SEED [50] the openings (8 random plies)
#   CONCURRENCY [$(nproc)/2]  games at the same time (each game needs one core: two engines
#                             that take turns)
set -euo pipefail

if [[ $# -ne 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
cd "$(dirname "$0")/.."
OUT_DIR=$(mkdir -p "$1" && cd "$1" && pwd)
BASE="${BASE:-2281ce0}"
VARIANTS="${VARIANTS:-persian-princess oriental-omega celtic-citadel egyptian-eye}"
GAMES="${GAMES:-1000}"
TC="${TC:-3+0.03}"
SEED="${SEED:-50}"
CONCURRENCY="${CONCURRENCY:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}"
LOG="$OUT_DIR/equal-time.txt"

BASE_COMMIT=$(git rev-parse --verify --quiet "$BASE^{commit}") \
    || { echo "equal-time: BASE=$BASE is not a commit of this repository" >&2; exit 1; }
for v in $VARIANTS; do
    [[ -f "data/nets/$v.nnue" ]] || { echo "equal-time: no installed net data/nets/$v.nnue" >&2; exit 1; }
    # Results files are appended to: a second run into the same folder would mix two runs.
    [[ ! -e "$OUT_DIR/$v.txt" ]] \
        || { echo "equal-time: $OUT_DIR/$v.txt exists (an earlier run): choose another OUT_DIR" >&2; exit 1; }
done

# This checkout's build, brought up to date (cargo does nothing when it is).
cargo build --release -p engine
NEW="$PWD/target/release/persian-engine"
# The base: its source exported (no worktree to clean up), built once per commit.
BASE_DIR="$OUT_DIR/base-${BASE_COMMIT:0:12}"
BASE_ENGINE="$BASE_DIR/target/release/persian-engine"
if [[ ! -x "$BASE_ENGINE" ]]; then
    echo "== building $BASE in $BASE_DIR"
    mkdir -p "$BASE_DIR"
    git archive "$BASE_COMMIT" | tar -x -C "$BASE_DIR"
    (cd "$BASE_DIR" && cargo build --release -p engine)
fi

echo "== $(git rev-parse --short HEAD) against $BASE, tc=$TC, $GAMES games per variant, $CONCURRENCY at a time, seed $SEED" | tee -a "$LOG"
for v in $VARIANTS; do
    net="$PWD/data/nets/$v.nnue"
    echo "== $v" | tee -a "$LOG"
    "$NEW" match -v "$v" -n "$GAMES" -c "$CONCURRENCY" \
        --engine "cmd=$NEW,name=new" --engine "cmd=$BASE_ENGINE,name=base" \
        --each "tc=$TC,option.EvalFile=$net" \
        --resign-score 800 --resign-moves 4 --draw-score 10 --draw-moves 8 --draw-after 80 \
        --seed "$SEED" --results "$OUT_DIR/$v.txt" --quiet 2>&1 | tee -a "$LOG"
done
