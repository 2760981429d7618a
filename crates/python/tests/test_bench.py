"""The benchmark runs (its numbers come from a release wheel, docs/benchmarks.md)."""

import subprocess
import sys

from conftest import REPO


def test_the_benchmark_runs_and_prints_both_sides():
    done = subprocess.run(
        [sys.executable, str(REPO / "crates" / "python" / "bench" / "bench.py"), "--quick"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "from Python" in done.stdout and "from Rust" in done.stdout
