"""Documents: opened, changed by the editor's edits, saved, baked and exported, against the
`marionette export` command."""

import json

import numpy as np
import pytest

import marionette as m
from conftest import HUMANOID, REPO, marionette


def saved_text(doc, tmp_path, name="now.marionette.ron"):
    """The document's file as saving it would write it (a copy is saved, the document's own
    file is left alone)."""
    copy = m.Document.open(doc.file) if doc.file else None
    path = tmp_path / name
    (copy or doc).save(path)
    return path.read_text()


def test_a_document_opens_and_lists_what_it_holds(crouch):
    doc = m.Document.open(crouch)
    assert doc.figures == ["humanoid"]
    assert doc.sequences == ["crouch"]
    assert [lock["name"] for lock in doc.locks] == ["left foot", "right foot"]
    assert doc.keys("crouch") == [0, 24]
    assert doc.key_pose("crouch", 24)["left knee"][0] > 0
    assert not doc.modified


def test_save_round_trips_a_document(crouch, tmp_path):
    doc = m.Document.open(crouch)
    out = tmp_path / "again.marionette.ron"
    doc.save(out)
    again = m.Document.open(out)
    assert again.sequences == doc.sequences and again.keys("crouch") == doc.keys("crouch")
    assert again.pose == doc.pose
    assert doc.file == out and not doc.modified


def test_a_first_script_poses_keys_bakes_and_exports(humanoid, tmp_path):
    doc = m.Document.new(humanoid)
    lock = doc.lock("left toe tip", "pose")
    assert lock == "left toe tip pose"
    reach = m.solve(humanoid, doc.pose, [m.Position("right fingertips", [0.3, 1.4, 0.3])])
    doc.set_pose(reach.pose)
    name = doc.new_sequence("wave")
    assert name == "wave" and doc.keys("wave") == [0]
    crouched = doc.pose
    crouched["right knee"] = [40.0]
    crouched["left knee"] = [40.0]
    doc.go_to_frame(24)
    doc.set_pose(crouched)
    doc.set_key()
    assert doc.keys("wave") == [0, 24]
    baked = doc.bake("wave")
    assert baked.joints_world.shape == (25, 22, 3)
    assert np.nanmax(baked.lock_errors["left toe tip pose"]) <= 1e-4
    assert baked.values["right knee"].shape == (25, 1)
    out = tmp_path / "wave.marionette.ron"
    doc.save(out)
    assert m.Document.open(out).keys("wave") == [0, 24]


def test_a_refused_edit_leaves_the_document_as_it_was(crouch, tmp_path):
    doc = m.Document.open(crouch)
    before = (doc.pose, doc.locks, doc.sequences, doc.keys("crouch"), doc.modified)
    stickman = m.Skeleton.load(HUMANOID.parent / "stickman.ron")
    with pytest.raises(m.Error, match="stickman"):
        doc.set_pose(stickman.rest_pose())
    with pytest.raises(m.Error, match='no lock named "nope"'):
        doc.set_lock_enabled("nope", False)
    with pytest.raises(m.Error, match='no sequence named "walk"'):
        doc.bake("walk")
    with pytest.raises(m.Error, match='no sequence named "walk"'):
        doc.show_sequence("walk")
    with pytest.raises(m.Error, match='site "left hand"'):
        doc.lock("left hand")
    with pytest.raises(m.Error, match='no figure "C"'):
        doc.bake("crouch", figure="C")
    with pytest.raises(m.Error):
        doc.rename_sequence("crouch", "")
    assert (doc.pose, doc.locks, doc.sequences, doc.keys("crouch"), doc.modified) == before


def test_a_missing_or_broken_document_raises_file_error(tmp_path):
    with pytest.raises(m.FileError, match="nowhere.marionette.ron"):
        m.Document.open(tmp_path / "nowhere.marionette.ron")
    broken = tmp_path / "broken.marionette.ron"
    broken.write_text("Document(version: 1, skeleton: ")
    with pytest.raises(m.FileError, match="broken.marionette.ron"):
        m.Document.open(broken)


def test_undo_and_redo_go_through_the_history(crouch):
    doc = m.Document.open(crouch)
    doc.set_lock_enabled("left foot", False)
    assert not doc.locks[0]["enabled"]
    assert doc.undo()
    assert doc.locks[0]["enabled"]
    assert doc.redo()
    assert not doc.locks[0]["enabled"]


def test_a_bake_agrees_with_the_command_s_json_export(crouch, tmp_path):
    doc = m.Document.open(crouch)
    baked = doc.bake("crouch")
    out = tmp_path / "crouch.json"
    marionette("export", crouch, "--sequence", "crouch", "--format", "json", "--out", out)
    frames = json.loads(out.read_text())["frames"]
    assert list(baked.frames) == [f["frame"] for f in frames]
    for k, frame in enumerate(frames):
        for j, name in enumerate(baked.joint_names):
            np.testing.assert_allclose(
                baked.joints_world[k, j], frame["joints_world"][name], rtol=0, atol=1e-12
            )
        for name, at in frame["sites"].items():
            np.testing.assert_allclose(baked.sites[name][k], at, rtol=0, atol=1e-12)
        for name, error in frame["lock_errors"].items():
            assert baked.lock_errors[name][k] == pytest.approx(error, abs=1e-15)


@pytest.mark.parametrize("extension", ["glb", "bvh", "json"])
def test_an_export_is_byte_identical_to_the_command_s(crouch, tmp_path, extension):
    doc = m.Document.open(crouch)
    ours = tmp_path / f"ours.{extension}"
    theirs = tmp_path / f"theirs.{extension}"
    assert doc.export("crouch", ours) == []
    marionette("export", crouch, "--sequence", "crouch", "--format", extension, "--out", theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    with pytest.raises(m.Error, match="export writes .bvh, .glb or .json"):
        doc.export("crouch", tmp_path / "out.fbx")


def test_a_stage_exports_and_bakes_with_its_props(tmp_path):
    text = (REPO / "crates" / "motion" / "tests" / "data" / "two-dancers.marionette.ron").read_text()
    stage_file = tmp_path / "two.marionette.ron"
    stage_file.write_text(text.replace('"../../../../skeletons/', f'"{REPO}/skeletons/'))
    doc = m.Document.open(stage_file)
    assert doc.figures == ["A", "B"]
    assert "stick" in doc.props
    doc.select_figure("B")
    assert doc.figure == "B"
    with pytest.raises(m.LimitError, match='prop "stick"'):
        doc.set_prop_mass("stick", float("nan"))
    doc.set_prop_mass("stick", 2.5)
    assert doc.props["stick"]["mass_kg"] == 2.5
    ours, theirs = tmp_path / "ours.glb", tmp_path / "theirs.glb"
    doc.save(stage_file)
    doc.export(None, ours)
    marionette("export", stage_file, "--format", "glb", "--out", theirs)
    assert ours.read_bytes() == theirs.read_bytes()


def test_locks_body_and_keys_change_through_edits(crouch):
    doc = m.Document.open(crouch)
    doc.rename_lock("left foot", "left planted")
    doc.set_lock_weight("left planted", 2.0)
    assert doc.locks[0]["name"] == "left planted"
    with pytest.raises(m.LimitError, match="weight"):
        doc.set_lock_weight("left planted", float("nan"))
    assert doc.body is None
    doc.set_body(62.0, female=True)
    assert doc.body == (62.0, "female")
    with pytest.raises(m.LimitError):
        doc.set_body(-1.0)
    assert doc.body == (62.0, "female")
    doc.show_sequence("crouch")
    doc.move_key(24, 30)
    assert doc.keys("crouch") == [0, 30]
    assert doc.physics_check("crouch")["mass_kg"] == 62.0


def test_a_stage_is_built_by_its_edits(crouch, tmp_path):
    doc = m.Document.open(crouch)
    doc.add_figure("partner", HUMANOID, at=[1.0, 0.0], facing=180.0)
    assert doc.figures == ["humanoid", "partner"]
    doc.add_prop("ball", sphere=0.11, at=[0.5, 1.0, 0.3], mass=0.45)
    assert doc.props["ball"]["mass_kg"] == 0.45
    with pytest.raises(m.Error, match="one shape"):
        doc.add_prop("crate", size=[0.5, 0.5, 0.5], sphere=0.2)
    with pytest.raises(m.LimitError, match="sphere"):
        doc.add_prop("dot", sphere=0.0)
    with pytest.raises(m.LimitError):
        doc.place_figure("partner", [float("nan"), 0.0])
    doc.place_prop("ball", [0.4, 1.1, 0.3])
    assert doc.props["ball"]["position"] == [0.4, 1.1, 0.3]
    doc.rename_figure("partner", "B")
    doc.lock_between(("humanoid", "right fingertips"), ("B", "right fingertips"))
    assert len(doc.links) == 1
    doc.remove_link(doc.links[0])
    doc.remove_prop("ball")
    assert doc.figures == ["humanoid", "B"] and "ball" not in doc.props and doc.links == []
    out = tmp_path / "stage.marionette.ron"
    doc.save(out)
    again = m.Document.open(out)
    assert again.figures == ["humanoid", "B"]
    assert again.bake("crouch", figure="humanoid").joints_world.shape[0] == 25
    with pytest.raises(m.Error):
        doc.remove_figure("nobody")
