"""Every Python example in docs/python.md runs as written, in a folder holding the repository's
skeletons, a `captures` folder with CMU's 01_01 and the keyed jump of the command's tests."""

import os
import re
import subprocess
import sys

import pytest

from conftest import CMU, REPO

EXAMPLES = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python.md").read_text(), re.S)


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_an_example_runs(index, tmp_path):
    (tmp_path / "skeletons").symlink_to(REPO / "skeletons")
    (tmp_path / "captures").mkdir()
    (tmp_path / "captures" / CMU.name).symlink_to(CMU)
    jump = REPO / "crates" / "cli" / "tests" / "data" / "jump.marionette.ron"
    (tmp_path / "jump.marionette.ron").write_text(jump.read_text())
    script = tmp_path / "example.py"
    script.write_text(EXAMPLES[index])
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert done.returncode == 0, done.stderr
