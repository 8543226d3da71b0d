#!/usr/bin/env bash
# Lazy SMP from 1 to 2 threads (and more): nodes per second of one search per thread count, then
# a match of 2 threads against 1 at equal time per move.
#
# Needs real cores: 2 x CONCURRENCY + 1 of them for the match (a 2-vCPU machine measures nothing).
#
# Usage: scripts/smp-check.sh OUT_DIR
# Settings (environment variables, defaults in brackets):
#   ENGINE [target/release/persian-engine]   VARIANT [persian-princess]
#   THREADS ["1 2 4 8"]  thread counts of the speed test   SEARCH_MS [4000] time of each search
#   GAMES [200]          match games                        MOVETIME [100] ms per move
#   CONCURRENCY [$(nproc)/3]  games at the same time        HASH [64] MB per engine
set -uo pipefail

if [[ $# -ne 1 || "$1" == "-h" || "$1" == "--help" ]]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
fi
OUT_DIR=$1
ENGINE="${ENGINE:-target/release/persian-engine}"
VARIANT="${VARIANT:-persian-princess}"
THREADS="${THREADS:-1 2 4 8}"
SEARCH_MS="${SEARCH_MS:-4000}"
GAMES="${GAMES:-200}"
MOVETIME="${MOVETIME:-100}"
CONCURRENCY="${CONCURRENCY:-$(($(nproc) / 3))}"
HASH="${HASH:-64}"
mkdir -p "$OUT_DIR"
LOG="$OUT_DIR/smp.txt"

echo "== $(nproc) cores, $VARIANT, ${SEARCH_MS} ms per search, hash $HASH MB" | tee -a "$LOG"
for t in $THREADS; do
    line=$(printf 'setoption name UCI_Variant value %s\nsetoption name Hash value %s\nsetoption name Threads value %s\nisready\nposition startpos\ngo movetime %s\n' \
        "$VARIANT" "$HASH" "$t" "$SEARCH_MS" | { cat; sleep $((SEARCH_MS / 1000 + 2)); echo quit; } \
        | "$ENGINE" uci 2>&1 | grep '^info depth' | tail -1)
    echo "threads $t: $line" | tee -a "$LOG"
done

echo "== match: 2 threads against 1, $MOVETIME ms per move, $GAMES games, $CONCURRENCY at a time" | tee -a "$LOG"
"$ENGINE" match -v "$VARIANT" -n "$GAMES" -c "$CONCURRENCY" \
    --first "name=threads2,threads=2,movetime=$MOVETIME,hash=$HASH" \
    --second "name=threads1,threads=1,movetime=$MOVETIME,hash=$HASH" --quiet 2>&1 | tee -a "$LOG"
