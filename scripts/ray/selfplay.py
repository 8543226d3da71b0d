#!/usr/bin/env python3
"""Self-play on a Ray cluster: `trainer selfplay` split by shard.

Each missing shard of the run is one Ray task: a worker runs the trainer binary (shipped to it
through Ray's object store, so the workers need no copy and no shared file system) with
`--shards N` into a scratch directory and sends the shard's files back; this driver writes them
into the output directory. The shard files are, byte for byte, those one machine writes with the
same settings (a game's opening depends on the seed and the game's number alone, so a shard
needs none of the games before it), so the run can be resumed by this driver or by `trainer
selfplay` itself, and a finished shard is never played twice. A task whose worker dies (or whose trainer fails) is run again, up
to --max-retries times. At the end the directory is checked with `trainer data validate`, and
with --openings DIR the opening statistics of its games are written there (`trainer openings`).
The driver reports the openings repeated over the whole run (each shard's .json lists its
games' opening hashes).

    python scripts/ray/selfplay.py --games 1000 --out data/selfplay/persian-princess \\
        -- --variant persian-princess --nodes 2000 --net hce

Everything after `--` goes to `trainer selfplay` unchanged (not --games, --games-per-shard,
--shards, --threads, --out: this driver sets those). Without --address a local Ray is started
(and stopped) with --workers CPUs; with --address (or RAY_ADDRESS) the cluster's.
"""

import argparse
import hashlib
import json
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
OWNED = {"--games", "-n", "--games-per-shard", "--shards", "--threads", "-t", "--out", "-o", "--quiet", "-q"}


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Self-play on a Ray cluster: trainer selfplay split by shard.",
        epilog="Options after -- go to trainer selfplay (see trainer selfplay --help).",
    )
    p.add_argument("--trainer", default="target/release/persian-trainer", help="the trainer binary (default: %(default)s)")
    p.add_argument("--trainer-on-workers", default=None, metavar="PATH",
                   help="the trainer is at PATH on every worker already (shared file system, image): nothing is shipped")
    p.add_argument("--address", default=None, help="the Ray cluster (default: RAY_ADDRESS, else a local Ray)")
    p.add_argument("--workers", type=int, default=None, help="CPUs of a local Ray (default: all)")
    p.add_argument("--out", required=True, help="the output directory (as trainer selfplay --out)")
    p.add_argument("--games", type=int, required=True, help="games in total in the directory")
    p.add_argument("--games-per-shard", type=int, default=100, help="games per shard, one task each (default: %(default)s)")
    p.add_argument("--openings", default=None, metavar="DIR",
                   help="then the reduce step: trainer openings over the run's games into DIR")
    p.add_argument("--max-retries", type=int, default=3, help="runs of a shard after a failure (default: %(default)s)")
    p.add_argument("selfplay", nargs=argparse.REMAINDER, help="-- then options of trainer selfplay")
    args = p.parse_args(argv)
    if args.selfplay and args.selfplay[0] == "--":
        args.selfplay = args.selfplay[1:]
    clash = [a for a in args.selfplay if a.split("=")[0] in OWNED]
    if clash:
        p.error(f"{', '.join(clash)}: this driver sets these options itself")
    if args.games < 1 or args.games_per_shard < 1:
        p.error("--games and --games-per-shard must be at least 1")
    return args


def shard_stem(index):
    return f"shard_{index:06d}"


def complete_shards(out):
    """Indices of the shards the directory holds completely (records and summary)."""
    done = set()
    for path in out.glob("shard_*.json"):
        stem = path.stem
        if (out / f"{stem}.bin").exists() and (out / f"{stem}.pgn").exists():
            try:
                done.add(int(stem.split("_")[1]))
            except ValueError:
                pass
    return done


@ray.remote
def play_shard(binary, digest, selfplay, games, per_shard, index, test_kill_dir=None):
    """Plays shard `index` of the run; returns its files (name -> bytes) and run.json. `binary`
    is the trainer's bytes, or its path on the worker."""
    exe = binary if isinstance(binary, str) else binary_path(binary, digest, "trainer")
    with tempfile.TemporaryDirectory(prefix=f"selfplay-{index}-") as scratch:
        cmd = [str(exe), "selfplay", *selfplay, "--games", str(games), "--games-per-shard", str(per_shard),
               "--shards", str(index), "--threads", "1", "--quiet", "--out", scratch]
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if test_kill_dir is not None:
            # Tests: the first attempt of this shard loses its worker mid-shard, as a machine
            # that goes away would.
            marker = pathlib.Path(test_kill_dir) / f"killed-{index}"
            if not marker.exists():
                marker.write_text(str(os.getpid()))
                time.sleep(0.3)
                child.kill()
                os.kill(os.getpid(), 9)
        out, err = child.communicate()
        if child.returncode != 0:
            raise RuntimeError(f"shard {index}: trainer selfplay exited with {child.returncode}: {err.strip()[-2000:]}")
        files = {}
        for path in pathlib.Path(scratch).iterdir():
            if path.name.startswith(shard_stem(index) + ".") or path.name == "run.json":
                files[path.name] = path.read_bytes()
        if not any(name.endswith(".bin") for name in files):
            raise RuntimeError(f"shard {index}: the trainer wrote no records ({out.strip()[-500:]})")
        return files


def write_shard(out, files):
    """Writes a shard's files, the records last, each through a temporary name."""
    order = sorted(files, key=lambda n: (n.endswith(".bin"), n))
    for name in order:
        if name == "run.json":
            continue
        tmp = out / f"{name}.tmp"
        tmp.write_bytes(files[name])
        tmp.replace(out / name)


def run_schema(run):
    """The schema of a run.json's content (1: written before the field existed)."""
    return int(run.get("schema", 1))


def check_old_run(out):
    """Refuses, before any task runs, to continue a run begun by a trainer whose openings
    depended on the games before them (run.json schema 1): its next shards would differ. (A
    complete one has nothing to continue and is left alone.)"""
    path = out / "run.json"
    if path.exists() and run_schema(json.loads(path.read_text())) < 2:
        raise SystemExit(f"{path} belongs to a run of an earlier trainer (run.json schema 1, whose openings depend "
                         "on all the games before them): it cannot be continued; keep its shards and start a new "
                         "run in another --out")


def check_run_file(out, run_json):
    """The first result's run.json becomes the directory's; an existing one must hold the same
    schema and settings (a directory belongs to one run)."""
    path = out / "run.json"
    theirs = json.loads(run_json)
    settings = theirs["settings"]
    if path.exists():
        existing = json.loads(path.read_text())
        if run_schema(existing) != run_schema(theirs):
            raise SystemExit(f"{path} is of run.json schema {run_schema(existing)}, the trainer writes schema "
                             f"{run_schema(theirs)}: the run cannot be continued with this trainer; use another --out")
        mine = existing["settings"]
        if mine != settings:
            diff = sorted(k for k in set(mine) | set(settings) if mine.get(k) != settings.get(k))
            raise SystemExit(f"{out} holds a run with other settings ({', '.join(diff)}): use another --out")
    else:
        tmp = out / "run.json.tmp"
        tmp.write_bytes(run_json)
        tmp.replace(path)


PROJECTED_GAMES = 1_000_000


def opening_repeats(out):
    """(games, repeated openings, pairs of games with the same opening) over the complete shards
    of `out`, from the opening hashes each shard's .json lists; None when a shard has no such
    list."""
    hashes = []
    for index in sorted(complete_shards(out)):
        summary = json.loads((out / f"{shard_stem(index)}.json").read_text())
        if "opening_hashes" not in summary:
            return None
        hashes.extend(summary["opening_hashes"])
    counts = {}
    for h in hashes:
        counts[h] = counts.get(h, 0) + 1
    pairs = sum(k * (k - 1) // 2 for k in counts.values())
    return len(hashes), len(hashes) - len(counts), pairs


def projected_share(games, pairs, run_games=PROJECTED_GAMES):
    """An upper bound of the share of a run of `run_games` games expected to repeat an earlier
    opening, from the pairs among `games` games of the same settings (as `trainer selfplay`
    computes it: repeats are at most pairs, whose expectation grows with the square of the
    games); None for fewer than two games."""
    if games < 2:
        return None
    return min(1.0, pairs * (run_games - 1) / (games * (games - 1)))


def repeats_line(out):
    """The run's repeated openings in words, with the projection to a million games."""
    counted = opening_repeats(out)
    if counted is None:
        return "openings: not counted (a shard lists no opening hashes)"
    games, repeats, pairs = counted
    share = 100.0 * repeats / games if games else 0.0
    line = (f"openings: {games - repeats} distinct of {games} games: {repeats} duplicate opening(s) ({share:.2f}%) "
            "over the whole run")
    projected = projected_share(games, pairs)
    if projected is not None and games < PROJECTED_GAMES:
        line += (f"; projected: at most {100.0 * projected:.2f}% of a run of {PROJECTED_GAMES:,} games would repeat "
                 f"an earlier opening ({pairs} pair(s) of games with the same opening here)")
    return line


def variant_of(selfplay):
    for i, a in enumerate(selfplay):
        if a in ("--variant", "-v") and i + 1 < len(selfplay):
            return selfplay[i + 1]
        if a.startswith("--variant="):
            return a.split("=", 1)[1]
    return None


def local_step(trainer, command, variant, out, failure):
    """Runs a trainer command over the run's directory on this machine; stops on failure."""
    cmd = [str(trainer), *command] + (["--variant", variant] if variant else []) + [str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    print(done.stdout.strip(), flush=True)
    if done.returncode != 0:
        raise SystemExit(f"{failure}: {done.stderr.strip()}")


def run(args, test_kill_dir=None):
    """The job; returns the number of shards played."""
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    trainer = pathlib.Path(args.trainer)
    if not trainer.is_file():
        raise SystemExit(f"--trainer {trainer}: no such file (build it: cargo build --release -p trainer)")
    shards = (args.games + args.games_per_shard - 1) // args.games_per_shard
    have = complete_shards(out)
    missing = [i for i in range(shards) if i not in have]
    if missing:
        check_old_run(out)
    print(f"selfplay on Ray: {shards} shard(s) of {args.games_per_shard} games, {len(have)} already in {out}, "
          f"{len(missing)} to play on {int(ray.cluster_resources().get('CPU', 0))} CPU(s)", flush=True)
    if missing:
        if args.trainer_on_workers:
            blob, digest = args.trainer_on_workers, ""
        else:
            data = trainer.read_bytes()
            digest = hashlib.sha256(data).hexdigest()[:16]
            blob = ray.put(data)
        task = play_shard.options(max_retries=args.max_retries, retry_exceptions=True)
        pending = {task.remote(blob, digest, args.selfplay, args.games, args.games_per_shard, i, test_kill_dir): i
                   for i in missing}
        start = time.monotonic()
        done = 0
        positions = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                index = pending.pop(ref)
                files = ray.get(ref)
                check_run_file(out, files["run.json"])
                write_shard(out, files)
                summary = json.loads(files[f"{shard_stem(index)}.json"])
                positions += int(summary.get("positions", 0))
                done += 1
                elapsed = time.monotonic() - start
                rate = positions / elapsed if elapsed > 0 else 0.0
                eta = elapsed / done * (len(missing) - done)
                print(f"  shard {index}: {done}/{len(missing)} done, {positions} positions, {rate:.0f} positions/s, "
                      f"ETA {eta:.0f} s", flush=True)
    print(f"  {repeats_line(out)}", flush=True)
    variant = variant_of(args.selfplay)
    local_step(trainer, ["data", "validate"], variant, out, "trainer data validate found problems")
    if args.openings:
        # The reduce step, on this machine (where the games are): the opening statistics.
        local_step(trainer, ["openings", "--out", args.openings], variant, out, "trainer openings failed")
    return len(missing)


def main(argv=None):
    run_on_ray(parse_args(sys.argv[1:] if argv is None else argv), run)


if __name__ == "__main__":
    main()
