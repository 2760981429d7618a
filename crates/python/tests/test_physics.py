"""The physics assistant from Python: the check and the fix equal the commands'."""

import shutil

import pytest

import marionette as m
from conftest import CMU, REPO, marionette, marionette_json

JUMP = REPO / "crates" / "cli" / "tests" / "data" / "jump.marionette.ron"


@pytest.fixture
def jump(tmp_path):
    text = JUMP.read_text().replace('"skeletons/', f'"{REPO}/skeletons/')
    path = tmp_path / "jump.marionette.ron"
    path.write_text(text)
    return path


def test_the_check_of_a_sequence_equals_the_command_s(jump):
    report = m.Document.open(jump).physics_check("jump")
    assert report == marionette_json("physics", "check", jump, "--sequence", "jump")
    assert [(s["from"], s["to"]) for s in report["spans"]] == [(16, 35)]
    heavier = m.Document.open(jump).physics_check("jump", mass=90.0, female=True)
    assert heavier == marionette_json(
        "physics", "check", jump, "--sequence", "jump", "--mass", "90", "--female"
    )
    assert heavier["mass_kg"] == 90.0


def test_the_check_of_a_capture_equals_the_command_s():
    capture = m.read_capture(CMU, scale=0.056)
    assert capture.physics_check() == marionette_json(
        "physics", "check", CMU, "--scale", "0.056"
    )


def test_the_fix_equals_the_command_s(jump, tmp_path):
    doc = m.Document.open(jump)
    said = doc.physics_fix("jump", (16, 35), ballistic=True)
    assert said
    ours = tmp_path / "ours.marionette.ron"
    doc.save(ours)
    theirs = tmp_path / "theirs.marionette.ron"
    marionette(
        "physics", "fix", jump, "--sequence", "jump", "--span", "16..35", "--ballistic",
        "--out", theirs,
    )
    assert ours.read_text() == theirs.read_text()
    flight = m.Document.open(ours).physics_check("jump")["spans"][0]
    assert flight["kind"] == "ballistic" and abs(flight["g"] - 9.81) < 0.1


def test_bad_physics_requests_raise_and_leave_the_document(jump):
    doc = m.Document.open(jump)
    keys = doc.keys("jump")
    with pytest.raises(m.Error, match="say what to fix"):
        doc.physics_fix("jump", (16, 35))
    with pytest.raises(m.LimitError, match="mass"):
        doc.physics_check("jump", mass=-3.0)
    with pytest.raises(m.Error, match='no sequence named "hop"'):
        doc.physics_check("hop")
    with pytest.raises(m.Error, match='no sequence named "hop"'):
        doc.physics_fix("hop", (16, 35), ballistic=True)
    assert doc.keys("jump") == keys and not doc.modified
