#!/usr/bin/env python3
"""Matches on a Ray cluster: `engine match` split into game pairs.

A match of G games is G/2 pairs (pair P: opening P played with both colours). Each Ray task plays
--pairs-per-task consecutive pairs with `engine match --pairs A-B --results FILE --pgn FILE` (the
engine binary shipped through Ray's object store, or already on the workers) and sends the two
files back; this driver writes them as parts into --out. Every game starts with cleared engines,
so a game plays the same wherever and after whatever it is played (with node or depth limits;
`movetime` depends on the machine). `engine match-merge` then gives the report one process gives
for the same games: W/D/L, Elo, LOS, terminations and, with --sprt, the test applied game by game
in game order, stopping where it decides. With --sprt the tasks are started in pair order, a few
more than there are CPUs, and the rest are cancelled once the merged parts decide.

    python scripts/ray/match.py --games 400 --out runs/match-1 --sprt 0,50 -- \\
        --variant persian-princess --first "name=new,nodes=2000,eval=new.nnue" \\
        --second "name=old,nodes=2000,eval=old.nnue"

Everything after `--` goes to `engine match` (not --games, --pairs, --results, --pgn,
--concurrency, --sprt, --quiet: this driver sets those). A part whose worker dies is run again,
up to --max-retries times; parts already in --out are not played again (the job resumes). Run
again with a larger --games (e.g. an SPRT undecided at its cap), the match goes on: the parts
played count (a part cut short by the old number of games is played again whole), the new ones
continue the same series of openings, and the merged report is that of the larger match.
Without --address a local Ray is started (and stopped) with --workers CPUs.
"""

import argparse
import hashlib
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import ray

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from common import binary_path, run_on_ray  # noqa: E402

# Options this driver owns.
OWNED = {"--games", "-n", "--pairs", "--results", "--pgn", "--concurrency", "-c", "--sprt", "--alpha", "--beta",
         "--quiet", "-q"}


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Matches on a Ray cluster: engine match split into game pairs.",
        epilog="Options after -- go to engine match (see engine match --help).",
    )
    p.add_argument("--engine", default="target/release/persian-engine", help="the engine binary (default: %(default)s)")
    p.add_argument("--engine-on-workers", default=None, metavar="PATH",
                   help="the engine is at PATH on every worker already: nothing is shipped")
    p.add_argument("--address", default=None, help="the Ray cluster (default: RAY_ADDRESS, else a local Ray)")
    p.add_argument("--workers", type=int, default=None, help="CPUs of a local Ray (default: all)")
    p.add_argument("--out", required=True, help="directory of the parts, the merged games.pgn and summary.txt")
    p.add_argument("--games", type=int, required=True, help="games of the match")
    p.add_argument("--pairs-per-task", type=int, default=4, help="game pairs per task (default: %(default)s)")
    p.add_argument("--sprt", default=None, metavar="ELO0,ELO1", help="SPRT bounds, as engine match --sprt")
    p.add_argument("--alpha", default=None, help="SPRT false-positive rate (engine match's default)")
    p.add_argument("--beta", default=None, help="SPRT false-negative rate (engine match's default)")
    p.add_argument("--max-retries", type=int, default=3, help="runs of a part after a failure (default: %(default)s)")
    p.add_argument("match", nargs=argparse.REMAINDER, help="-- then options of engine match")
    args = p.parse_args(argv)
    if args.match and args.match[0] == "--":
        args.match = args.match[1:]
    clash = [a for a in args.match if a.split("=")[0] in OWNED]
    if clash:
        p.error(f"{', '.join(clash)}: this driver sets these options itself")
    if args.games < 1 or args.pairs_per_task < 1:
        p.error("--games and --pairs-per-task must be at least 1")
    return args


def parts_of(games, per_task):
    """The parts: (index, first pair, last pair)."""
    pairs = (games + 1) // 2
    return [(k, a, min(a + per_task, pairs) - 1) for k, a in enumerate(range(0, pairs, per_task))]


def part_stem(index):
    return f"part_{index:05d}"


def part_games(path):
    """The number of games of the match a part's results file was played for (its header's
    games=N), None when the header does not say."""
    with open(path) as f:
        header = f.readline()
    for field in header.rstrip("\n").split("\t"):
        if field.startswith("games="):
            try:
                return int(field[len("games="):])
            except ValueError:
                return None
    return None


def complete(out, part, games):
    """Whether part (index, first pair, last pair) of a match of `games` games is in `out`: its
    results file is there, played for a match in which it reached its last pair (a part of a
    match with fewer games may stop short of it: it is played again)."""
    k, _, last = part
    path = out / f"{part_stem(k)}.tsv"
    if not path.exists():
        return False
    played_for = part_games(path)
    if played_for is None or played_for == games:
        return True
    return min(2 * (last + 1), played_for) >= min(2 * (last + 1), games)


@ray.remote
def play_part(binary, digest, match, games, index, first, last, test_kill_dir=None):
    """Plays pairs first..=last; returns the results and PGN text. `binary` is the engine's bytes,
    or its path on the worker."""
    exe = binary if isinstance(binary, str) else binary_path(binary, digest, "engine")
    with tempfile.TemporaryDirectory(prefix=f"match-{index}-") as scratch:
        results, pgn = pathlib.Path(scratch) / "results.tsv", pathlib.Path(scratch) / "games.pgn"
        cmd = [str(exe), "match", *match, "--games", str(games), "--pairs", f"{first}-{last}",
               "--results", str(results), "--pgn", str(pgn), "--concurrency", "1", "--quiet"]
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if test_kill_dir is not None:
            # Tests: the first attempt of this part loses its worker mid-part.
            marker = pathlib.Path(test_kill_dir) / f"killed-{index}"
            if not marker.exists():
                marker.write_text(str(os.getpid()))
                time.sleep(0.2)
                child.kill()
                os.kill(os.getpid(), 9)
        out, err = child.communicate()
        if child.returncode != 0:
            raise RuntimeError(f"part {index}: engine match exited with {child.returncode}: {err.strip()[-2000:]}")
        return results.read_text(), pgn.read_text() if pgn.exists() else ""


def write_part(out, index, results, pgn):
    """Writes a part: its games first, its results last (a part with results is complete)."""
    stem = part_stem(index)
    for name, text in ((f"{stem}.pgn", pgn), (f"{stem}.tsv", results)):
        tmp = out / f"{name}.tmp"
        tmp.write_text(text)
        tmp.replace(out / name)


def merge(engine, files, args):
    """`engine match-merge` over the parts: its output and whether the SPRT has decided."""
    cmd = [str(engine), "match-merge", *map(str, files)]
    if args.sprt:
        cmd += ["--sprt", args.sprt]
        cmd += ["--alpha", args.alpha] if args.alpha else []
        cmd += ["--beta", args.beta] if args.beta else []
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"engine match-merge failed: {done.stderr.strip()}")
    decided = args.sprt is not None and ("H1 accepted" in done.stdout or "H0 accepted" in done.stdout)
    return done.stdout, decided


def run(args, test_kill_dir=None):
    """The job; returns the merged report's text."""
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    engine = pathlib.Path(args.engine)
    if not engine.is_file():
        raise SystemExit(f"--engine {engine}: no such file (build it: cargo build --release -p engine)")
    parts = parts_of(args.games, args.pairs_per_task)
    have = {p[0] for p in parts if complete(out, p, args.games)}
    missing = [p for p in parts if p[0] not in have]
    cpus = int(ray.cluster_resources().get("CPU", 1))
    print(f"match on Ray: {args.games} games in {len(parts)} part(s) of {args.pairs_per_task} pair(s), "
          f"{len(have)} already in {out}, {len(missing)} to play on {cpus} CPU(s)", flush=True)
    done_files = [out / f"{part_stem(k)}.tsv" for k in sorted(have)]
    decided = False
    if have:
        _, decided = merge(engine, done_files, args)
    if missing and not decided:
        if args.engine_on_workers:
            blob, digest = args.engine_on_workers, ""
        else:
            data = engine.read_bytes()
            digest = hashlib.sha256(data).hexdigest()[:16]
            blob = ray.put(data)
        task = play_part.options(max_retries=args.max_retries, retry_exceptions=True)
        # With an SPRT the parts start in order, a few more than the CPUs at a time, so that the
        # merged prefix can decide and the rest need not be played.
        window = 2 * cpus if args.sprt else len(missing)
        queue = list(missing)
        pending = {}
        start, games_done = time.monotonic(), 0
        while (queue or pending) and not decided:
            while queue and len(pending) < window:
                k, a, b = queue.pop(0)
                pending[task.remote(blob, digest, args.match, args.games, k, a, b, test_kill_dir)] = (k, a, b)
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                k, a, b = pending.pop(ref)
                results, pgn = ray.get(ref)
                write_part(out, k, results, pgn)
                done_files.append(out / f"{part_stem(k)}.tsv")
                games_done += min(2 * (b + 1), args.games) - 2 * a
                elapsed = time.monotonic() - start
                left = sum(min(2 * (y + 1), args.games) - 2 * x for _, x, y in queue) + \
                    sum(min(2 * (y + 1), args.games) - 2 * x for _, x, y in pending.values())
                eta = elapsed / games_done * left if games_done else 0.0
                print(f"  part {k} (pairs {a}-{b}): {games_done} games played, {games_done / elapsed:.2f} games/s, "
                      f"ETA {eta:.0f} s", flush=True)
                if args.sprt:
                    _, decided = merge(engine, done_files, args)
        for ref in pending:
            ray.cancel(ref, force=True)
    report, _ = merge(engine, done_files, args)
    # The merged games, in game order (parts in pair order, each in game order).
    with open(out / "games.pgn.tmp", "w") as merged:
        for k, _, _ in parts:
            pgn = out / f"{part_stem(k)}.pgn"
            if pgn.exists():
                merged.write(pgn.read_text())
    (out / "games.pgn.tmp").replace(out / "games.pgn")
    (out / "summary.txt").write_text(report)
    print(report, end="", flush=True)
    return report


def main(argv=None):
    run_on_ray(parse_args(sys.argv[1:] if argv is None else argv), run)


if __name__ == "__main__":
    main()
