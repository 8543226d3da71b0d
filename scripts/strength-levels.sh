#!/usr/bin/env bash
# Calibrates the strength levels (docs/strength.md): a chain of matches between levels, anchored
# at the full-strength engine searching 1,000 nodes per move (1000 Elo on the scale).
#
#   scripts/strength-levels.sh [ENGINE] [OUTDIR]
#
# ENGINE is an engine binary (default: target/release/persian-engine, built if missing); each
# match prints its report into OUTDIR (default: runs/strength-levels). GAMES (default 40) sets
# the games per match, GAMES_HIGH (default GAMES) those of the matches from level 14 up, which
# take longest; VARIANT (default persian-princess) the variant, CONCURRENCY (default 1) the
# games played at once.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-target/release/persian-engine}
out=${2:-runs/strength-levels}
games=${GAMES:-40}
games_high=${GAMES_HIGH:-$games}
variant=${VARIANT:-persian-princess}
concurrency=${CONCURRENCY:-1}
if [ ! -x "$engine" ]; then
    cargo build --release -p engine
fi
mkdir -p "$out"
# A level: the engine as a program with its Skill Level; its own caps limit the search (the
# nodes given here are never reached).
level() { echo "cmd=$engine,name=L$1,option.Skill Level=$1,nodes=100000000"; }
play() {
    local name=$1 first=$2 second=$3 n=$games
    case $name in L1[4-9]-*) n=$games_high ;; esac
    echo "== $name: $first vs $second" >&2
    "$engine" match -v "$variant" -n "$n" -c "$concurrency" -q --first "$first" --second "$second" \
        --pgn "$out/$name.pgn" | tee "$out/$name.txt"
}
# The anchor against a level near it, then each level against the one two below (the last step
# one level), so that no match is too one-sided to measure.
play anchor-L8 "name=N1000,nodes=1000" "$(level 8)"
for l in 2 4 6 8 10 12 14 16 18 19; do
    low=$(( l == 19 ? 18 : l - 2 ))
    play "L$l-L$low" "$(level "$l")" "$(level "$low")"
done
