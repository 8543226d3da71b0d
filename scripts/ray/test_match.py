#!/usr/bin/env python3
"""Test of the Ray match driver on a local Ray with 2 workers (run by engine/tests/play/ray_match.rs):

1. a match split into parts of one game pair, each of whose first attempts loses its worker,
   merges into the report of the same match played in one process (same W/D/L, Elo, LOS,
   terminations), with its games in game order;
2. with an SPRT, the distributed match decides after the same games as the one-process match
   (one game at a time, so games finish in order), with the same verdict;
3. run again, the driver finds every part already played;
4. run again with more games, it plays only the new parts (and a part the smaller match cut
   short) and reports the larger match.

    python scripts/ray/test_match.py --engine target/debug/persian-engine
"""

import argparse
import contextlib
import io
import pathlib
import re
import subprocess
import sys
import tempfile

import ray

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import match  # noqa: E402

SETTINGS = ["--variant", "persian-princess", "--first", "name=strong,nodes=300,hash=1,eval=hce",
            "--second", "name=weak,depth=1,hash=1,eval=hce", "--seed", "3"]
GAMES = 8


def body(report):
    """The report without its first line (time and the words of how it was played)."""
    return report.strip().splitlines()[1:]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--engine", required=True)
    a = p.parse_args()
    engine = str(pathlib.Path(a.engine).resolve())
    with tempfile.TemporaryDirectory(prefix="ray-match-test-") as tmp:
        tmp = pathlib.Path(tmp)
        one = subprocess.run([engine, "match", *SETTINGS, "--games", str(GAMES), "--concurrency", "1", "--quiet"],
                             check=True, capture_output=True, text=True).stdout
        one = one[one.index("Match strong vs weak"):]
        kills = tmp / "kills"
        kills.mkdir()
        out = tmp / "ray"
        args = match.parse_args(["--engine", engine, "--engine-on-workers", engine, "--out", str(out),
                                 "--games", str(GAMES), "--pairs-per-task", "1", "--", *SETTINGS])
        # Ray's session files and the workers' scratch folders go under the test's own folder,
        # which is removed at the end: a worker the test kills on purpose never removes its
        # scratch folder, and every local Ray leaves a session folder behind. The name is short:
        # Ray's Unix sockets live in there, and a socket's path is limited to 107 bytes.
        workers_tmp = tmp / "workers-tmp"
        workers_tmp.mkdir()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=str(tmp / "rs"),
                 runtime_env={"env_vars": {"TMPDIR": str(workers_tmp)}})
        try:
            report = match.run(args, test_kill_dir=str(kills))
            assert body(report) == body(one), f"\n{report}\n---\n{one}"
            assert sorted(m.name for m in kills.iterdir()) == [f"killed-{k}" for k in range(GAMES // 2)]
            rounds = [int(r) for r in re.findall(r'\[Round "(\d+)"\]', (out / "games.pgn").read_text())]
            assert rounds == list(range(1, GAMES + 1)), rounds
            assert not list(out.glob("*.tmp")), "no leftovers"
            # Again: nothing to play, the same report.
            assert body(match.run(args)) == body(report)

            # An SPRT: the same decision after the same games.
            sprt = ["--sprt", "0,300"]
            direct = subprocess.run([engine, "match", *SETTINGS, "--games", "40", "--concurrency", "1", "--quiet",
                                     *sprt], check=True, capture_output=True, text=True).stdout
            direct = direct[direct.index("Match strong vs weak"):]
            sargs = match.parse_args(["--engine", engine, "--engine-on-workers", engine, "--out", str(tmp / "sprt"),
                                      "--games", "40", "--pairs-per-task", "2", *sprt, "--", *SETTINGS])
            merged = match.run(sargs)
            assert body(merged) == body(direct), f"\n{merged}\n---\n{direct}"
            assert "accepted" in merged, merged

            # Taken further: the 8-game match (parts of one pair) run with 14 games plays the 3 new
            # parts only and reports the 14-game match, its games in game order.
            def direct_match(games):
                text = subprocess.run([engine, "match", *SETTINGS, "--games", str(games), "--concurrency", "1",
                                       "--quiet"], check=True, capture_output=True, text=True).stdout
                return text[text.index("Match strong vs weak"):]

            def driver(out_dir, games, per_task):
                fargs = match.parse_args(["--engine", engine, "--engine-on-workers", engine, "--out", str(out_dir),
                                          "--games", str(games), "--pairs-per-task", str(per_task), "--", *SETTINGS])
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    report = match.run(fargs)
                return report, printed.getvalue()

            report14, printed = driver(out, 14, 1)
            assert "4 already in" in printed and "3 to play" in printed, printed
            assert body(report14) == body(direct_match(14)), f"\n{report14}\n---\n{direct_match(14)}"
            rounds = [int(r) for r in re.findall(r'\[Round "(\d+)"\]', (out / "games.pgn").read_text())]
            assert rounds == list(range(1, 15)), rounds
            # 10 games in parts of two pairs end with a part of one pair; taken to 16, that part is
            # played again whole.
            driver(tmp / "cut", 10, 2)
            report16, printed = driver(tmp / "cut", 16, 2)
            assert "2 already in" in printed and "2 to play" in printed, printed
            assert body(report16) == body(direct_match(16)), f"\n{report16}\n---\n{direct_match(16)}"
        finally:
            ray.shutdown()
    print("ray match: ok")


if __name__ == "__main__":
    main()
