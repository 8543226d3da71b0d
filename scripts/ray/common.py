"""What the Ray drivers of scripts/ray share: the cache of a shipped binary on a node, and the
connection to a cluster (or a local Ray) around a job."""

import os
import pathlib
import tempfile

import ray


def binary_path(data, digest, name):
    """The binary `name` on this node, written once per content (a cache keyed by its hash)."""
    directory = pathlib.Path(tempfile.gettempdir()) / "persian-ray-bin" / digest
    exe = directory / name
    if not exe.exists():
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / f"{name}.{os.getpid()}.tmp"
        tmp.write_bytes(data)
        tmp.chmod(0o755)
        tmp.replace(exe)
    return exe


def run_on_ray(args, job):
    """Connects to --address (or RAY_ADDRESS), else starts a local Ray with --workers CPUs, runs
    `job(args)` and disconnects (stopping a local Ray)."""
    address = args.address or os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    try:
        job(args)
    finally:
        ray.shutdown()
