#!/usr/bin/env python3
"""A/B match between two builds of the engine, over UCI, at a fixed number of nodes per move.

`engine match` plays two configurations of one build; comparing two builds (an evaluation
change, say) needs two binaries. This plays game pairs (each opening with both colours) between
BIN_A and BIN_B and prints A's wins, draws and losses with the Elo difference. The games end by
the rules as the engine reports them (`engine show`: mate, stalemate, the 50-move rule and the
variant's own endings), by a threefold repetition of the position, or as a draw after
--max-plies. Openings are --random-plies random legal moves (from `engine perft -d 1`).

Example:
  scripts/ab_match.py --a old/engine --b target/release/engine -v citadel-9 -n 100 --nodes 1000
"""

import argparse
import math
import random
import subprocess
import sys


class Uci:
    def __init__(self, binary, variant):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"engine exited while waiting for {prefix}")
            if line.startswith(prefix):
                return line.strip()

    def best(self, moves, nodes):
        self.send("ucinewgame")
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go nodes {nodes}")
        return self.wait("bestmove").split()[1]

    def quit(self):
        self.send("quit")
        self.p.wait()


def show(binary, variant, moves):
    args = [binary, "show", "-v", variant]
    if moves:
        args += ["-m", " ".join(moves)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    fen, result = None, None
    for line in out.splitlines():
        if line.startswith("FEN:"):
            fen = line.split(None, 1)[1]
        if line.startswith("Result:"):
            result = line.split()[1]
    return fen, result


def legal(binary, variant, moves):
    args = [binary, "perft", "-v", variant, "-d", "1"]
    if moves:
        args += ["-m", " ".join(moves)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return [line.split(":")[0] for line in out.splitlines() if line.endswith(": 1")]


def repetition_key(fen):
    # Everything but the two clocks (the last two fields, or the two before Persian Chess's
    # rendezvous field: the two numeric fields).
    fields = fen.split()
    numeric = [i for i, f in enumerate(fields) if f.isdigit()]
    drop = set(numeric[:2])
    return " ".join(f for i, f in enumerate(fields) if i not in drop)


def play(engines, ref, variant, opening, nodes, max_plies):
    """Plays one game; engines[0] is White. Returns the result ('1-0', '0-1', '1/2-1/2')."""
    moves = list(opening)
    seen = {}
    while True:
        fen, result = show(ref, variant, moves)
        if result:
            return result
        key = repetition_key(fen)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3 or len(moves) >= max_plies:
            return "1/2-1/2"
        mover = engines[len(moves) % 2]
        m = mover.best(moves, nodes)
        if m in ("(none)", "0000"):
            return "1/2-1/2"
        moves.append(m)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="binary A (its results are reported)")
    ap.add_argument("--b", required=True, help="binary B")
    ap.add_argument("-v", "--variant", required=True)
    ap.add_argument("-n", "--games", type=int, default=100, help="games (rounded up to pairs)")
    ap.add_argument("--nodes", type=int, default=1000, help="nodes per move")
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    a, b = Uci(args.a, args.variant), Uci(args.b, args.variant)
    w = d = l = 0
    pairs = (args.games + 1) // 2
    for i in range(pairs):
        opening = []
        for _ in range(args.random_plies):
            choices = legal(args.b, args.variant, opening)
            if not choices:
                break
            opening.append(rng.choice(choices))
        for a_white in (True, False):
            engines = (a, b) if a_white else (b, a)
            r = play(engines, args.b, args.variant, opening, args.nodes, args.max_plies)
            if r == "1/2-1/2":
                d += 1
            elif (r == "1-0") == a_white:
                w += 1
            else:
                l += 1
        n = w + d + l
        print(f"pair {i + 1}/{pairs}: A {w}/{d}/{l}", file=sys.stderr, flush=True)
    a.quit()
    b.quit()
    n = w + d + l
    score = (w + d / 2) / n
    elo = -400 * math.log10(1 / score - 1) if 0 < score < 1 else float("inf") * (1 if score else -1)
    # 95% interval from the per-game variance of the score.
    var = (w * (1 - score) ** 2 + d * (0.5 - score) ** 2 + l * score**2) / n
    half = 1.96 * math.sqrt(var / n)
    lo, hi = max(score - half, 1e-6), min(score + half, 1 - 1e-6)
    to_elo = lambda s: -400 * math.log10(1 / s - 1)
    print(f"A vs B ({args.variant}, {args.nodes} nodes per move): W/D/L {w}/{d}/{l}, score {100 * score:.1f}%, "
          f"Elo {elo:+.0f} ({to_elo(lo):+.0f} .. {to_elo(hi):+.0f})")


if __name__ == "__main__":
    main()
