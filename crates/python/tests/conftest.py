"""Shared helpers: the repository, the `marionette` command (built by cargo when missing) and
its JSON output, so the tests compare the package with the command on the same files."""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parent / "data"
HUMANOID = REPO / "skeletons" / "humanoid.ron"
ARM7 = REPO / "skeletons" / "arm7.ron"
CMU = Path("/usr/share/assimp/models/BVH/01_01.bvh")


def _command() -> Path:
    given = os.environ.get("MARIONETTE_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    subprocess.run(
        ["cargo", "build", "--quiet", "--locked", "-p", "marionette-cli"], cwd=REPO, check=True
    )
    return target / "debug" / "marionette"


_BIN = None


def marionette(*args, check=True) -> subprocess.CompletedProcess:
    """Runs the `marionette` command in the repository; fails the test on an unexpected status."""
    global _BIN
    if _BIN is None:
        _BIN = _command()
    done = subprocess.run(
        [str(_BIN), *map(str, args)], cwd=REPO, capture_output=True, text=True
    )
    if check and done.returncode not in (0, 3):
        raise AssertionError(f"marionette {args} failed ({done.returncode}): {done.stderr}")
    return done


def marionette_json(*args):
    """The JSON the command prints with --json."""
    return json.loads(marionette(*args, "--json").stdout)


@pytest.fixture
def humanoid():
    import marionette as m

    return m.Skeleton.load(HUMANOID)


@pytest.fixture
def crouch(tmp_path):
    """A copy of the crouch document beside the test's files (the skeleton named absolutely)."""
    text = (DATA / "crouch.marionette.ron").read_text()
    text = text.replace('"../../../../skeletons/', f'"{REPO}/skeletons/')
    path = tmp_path / "crouch.marionette.ron"
    path.write_text(text)
    return path
