"""Skeletons, poses and forward kinematics, against the `marionette fk` command."""

import numpy as np
import pytest

import marionette as m
from conftest import DATA, HUMANOID, marionette_json


def test_a_skeleton_lists_its_joints_dofs_limits_and_sites(humanoid):
    assert humanoid.name == "humanoid"
    assert len(humanoid.joints) == 22
    assert len(humanoid.dofs) == 51
    assert len(humanoid.sites) == 7
    knee = next(j for j in humanoid.joints if j.name == "left knee")
    assert knee.parent == "left hip"
    (dof,) = knee.dofs
    assert (dof.kind, dof.min, dof.max) == ("hinge", 0.0, 150.0)
    assert humanoid.joint_names[0] == humanoid.joints[0].name
    assert {s.name for s in humanoid.sites} >= {"left fingertips", "head top"}
    assert humanoid.mass > 0


def test_a_pose_reads_and_sets_a_joint_in_degrees(humanoid):
    pose = humanoid.rest_pose()
    assert pose["left knee"] == [0.0]
    pose["left knee"] = [45.0]
    assert pose["left knee"] == [45.0]
    assert pose.q[3:].max() == pytest.approx(np.radians(45.0))
    pose.root = [0.1, 0.9, -0.2]
    assert pose.root == [0.1, 0.9, -0.2]
    assert pose.to_dict()["left knee"] == [45.0]


def test_a_value_outside_its_limits_raises_limit_error_naming_the_joint(humanoid):
    pose = humanoid.rest_pose()
    with pytest.raises(m.LimitError, match='joint "left knee"'):
        pose["left knee"] = [170.0]
    with pytest.raises(m.LimitError, match="left knee"):
        pose["left knee"] = [float("nan")]
    assert pose["left knee"] == [0.0], "a refused value leaves the pose as it was"
    with pytest.raises(m.LimitError):
        pose.root = [float("inf"), 0.0, 0.0]
    assert isinstance(m.LimitError("x"), m.Error)


def test_an_unknown_joint_or_wrong_length_raises_error_naming_it(humanoid):
    pose = humanoid.rest_pose()
    with pytest.raises(m.Error, match='joint "left elbw" is not in skeleton "humanoid"'):
        pose["left elbw"]
    with pytest.raises(m.Error, match='"left knee" has 2 values but 1 DOFs'):
        pose["left knee"] = [1.0, 2.0]


def test_missing_and_broken_files_raise_file_error_naming_the_file(tmp_path):
    with pytest.raises(m.FileError, match="nowhere.ron"):
        m.Skeleton.load(tmp_path / "nowhere.ron")
    broken = tmp_path / "broken.ron"
    broken.write_text("Skeleton(name: ")
    with pytest.raises(m.FileError, match="broken.ron"):
        m.Skeleton.load(broken)
    assert issubclass(m.FileError, m.Error)


def test_forward_agrees_with_marionette_fk(humanoid, tmp_path):
    pose = humanoid.rest_pose()
    pose["left knee"] = [40.0]
    pose["right shoulder"] = [20.0, -20.0, 10.0]
    pose.root = [0.05, 0.02, -0.1]
    path = tmp_path / "pose.ron"
    pose.save(path)
    assert m.FigurePose.load(humanoid, path) == pose
    frame = humanoid.forward(pose)
    expected = marionette_json("fk", HUMANOID, "--pose", path)
    assert frame.joints.shape == (22, 3)
    for k, name in enumerate(frame.joint_names):
        np.testing.assert_allclose(frame.joints[k], expected["joints"][name], rtol=0, atol=1e-12)
    for name, at in expected["sites"].items():
        np.testing.assert_allclose(frame.sites[name], at, rtol=0, atol=1e-12)
    np.testing.assert_allclose(frame.com, expected["com"], rtol=0, atol=1e-12)


def test_forward_refuses_another_skeleton_s_pose(humanoid):
    stickman = m.Skeleton.load(HUMANOID.parent / "stickman.ron")
    with pytest.raises(m.Error, match='the pose is of skeleton "stickman"'):
        humanoid.forward(stickman.rest_pose())


def test_a_character_opens_with_its_skeleton_weighed():
    figure = DATA.parents[2] / "interchange" / "tests" / "data" / "characters" / "RiggedFigure.gltf"
    character = m.open_character(figure)
    assert len(character.skeleton.joints) > 10
    assert character.masses == "masses: de Leva's segments by humanoid role (75 kg, male)"
    assert character.skeleton.mass == pytest.approx(75.0)
    with pytest.raises(m.FileError, match="nowhere.glb"):
        m.open_character("nowhere.glb")
