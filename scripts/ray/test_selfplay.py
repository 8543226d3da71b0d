#!/usr/bin/env python3
"""Test of the Ray self-play driver on a local Ray with 2 workers (run by trainer/tests/cli/ray.rs):

1. the shards played by Ray tasks are byte for byte those of one `trainer selfplay` process
   with the same settings;
2. a worker killed mid-shard (the first attempt of shard 1) leads to a re-run of that shard and
   a complete, valid directory without duplicate games;
3. run again, the driver finds nothing to do, and its reduce step writes the opening statistics;
4. the openings repeated over the whole run are counted from the shards' opening hashes, as
   `trainer selfplay` counts them;
5. a directory of a run begun before openings were drawn per game (run.json schema 1) is refused
   before any task runs.

    python scripts/ray/test_selfplay.py --trainer target/debug/persian-trainer
"""

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import ray

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import selfplay  # noqa: E402

SETTINGS = ["--variant", "persian-princess", "--net", "hce", "--nodes", "150", "--opening-check-nodes", "100",
            "--max-plies", "120", "--seed", "5", "--engine-plies", "0"]
GAMES, PER_SHARD = 5, 2


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--trainer", required=True)
    a = p.parse_args()
    trainer = str(pathlib.Path(a.trainer).resolve())
    with tempfile.TemporaryDirectory(prefix="ray-selfplay-test-") as tmp:
        tmp = pathlib.Path(tmp)
        single = tmp / "single"
        subprocess.run([trainer, "selfplay", *SETTINGS, "--games", str(GAMES), "--games-per-shard", str(PER_SHARD),
                        "--threads", "1", "--quiet", "--out", str(single)], check=True, capture_output=True)
        out = tmp / "ray"
        kills = tmp / "kills"
        kills.mkdir()
        args = selfplay.parse_args(["--trainer", trainer, "--trainer-on-workers", trainer, "--out", str(out),
                                    "--games", str(GAMES), "--games-per-shard", str(PER_SHARD), "--", *SETTINGS])
        # Ray's session files and the workers' scratch folders go under the test's own folder,
        # which is removed at the end: a worker the test kills on purpose never removes its
        # scratch folder, and every local Ray leaves a session folder behind. The name is short:
        # Ray's Unix sockets live in there, and a socket's path is limited to 107 bytes.
        workers_tmp = tmp / "workers-tmp"
        workers_tmp.mkdir()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=str(tmp / "rs"),
                 runtime_env={"env_vars": {"TMPDIR": str(workers_tmp)}})
        try:
            played = selfplay.run(args, test_kill_dir=str(kills))
            assert played == 3, played
            # Every first attempt lost its worker and was played again.
            assert sorted(m.name for m in kills.iterdir()) == ["killed-0", "killed-1", "killed-2"]
            for ext in ("bin", "pgn", "json"):
                names = sorted(f.name for f in single.glob(f"shard_*.{ext}"))
                assert names == sorted(f.name for f in out.glob(f"shard_*.{ext}")), ext
                for name in names:
                    assert (single / name).read_bytes() == (out / name).read_bytes(), f"{name} differs"
            assert not list(out.glob("*.tmp")), "no leftovers"
            # The same command again: nothing to play; trainer selfplay agrees the run is complete.
            # With --openings, the reduce step writes the opening statistics of the games.
            args.openings = str(tmp / "openings")
            assert selfplay.run(args) == 0
            assert (tmp / "openings" / "tree.json").exists()
            games, repeats, pairs = selfplay.opening_repeats(out)
            assert games == GAMES, games
            assert pairs >= repeats, (pairs, repeats)
            line = selfplay.repeats_line(out)
            assert f"{GAMES - repeats} distinct of {GAMES} games: {repeats} duplicate" in line, line
            projected = 100.0 * selfplay.projected_share(games, pairs)
            assert f"projected: at most {projected:.2f}% of a run of 1,000,000 games" in line, line
            # The projection as trainer selfplay computes it: 3 pairs among 100,000 games.
            assert abs(selfplay.projected_share(100_000, 3) - 3 * 999_999 / (100_000 * 99_999)) < 1e-15
            assert selfplay.projected_share(1, 0) is None
            assert selfplay.projected_share(2, 1) == 1.0
            # An old run's directory: refused, naming its run.json, with no task started.
            old = tmp / "old"
            old.mkdir()
            run = json.loads((out / "run.json").read_text())
            del run["schema"]
            (old / "run.json").write_text(json.dumps(run))
            old_args = selfplay.parse_args(["--trainer", trainer, "--trainer-on-workers", trainer, "--out", str(old),
                                            "--games", str(GAMES), "--games-per-shard", str(PER_SHARD), "--",
                                            *SETTINGS])
            try:
                selfplay.run(old_args)
                raise AssertionError("an old run was continued")
            except SystemExit as e:
                assert "run.json" in str(e) and "another --out" in str(e), e
            assert not list(old.glob("shard_*")), "nothing played"
        finally:
            ray.shutdown()
        again = subprocess.run([trainer, "selfplay", *SETTINGS, "--games", str(GAMES), "--games-per-shard",
                                str(PER_SHARD), "--quiet", "--out", str(out)], check=True, capture_output=True,
                               text=True)
        assert "nothing to do" in again.stdout, again.stdout
        assert f"{GAMES - repeats} distinct of {GAMES} games: {repeats} duplicate" in again.stdout, again.stdout
    print("ray selfplay: ok")


if __name__ == "__main__":
    main()
