"""Goals of every kind and every solver, against `marionette solve`."""

import math

import numpy as np
import pytest

import marionette as m
from conftest import ARM7, HUMANOID, REPO, marionette_json

SOLVERS = ["jt", "pinv", "dls", "sdls", "ccd", "lagrange", "priority", "nlp"]


def test_a_position_goal_is_reached_by_every_solver(humanoid):
    target = [0.35, 1.25, 0.25]
    for solver in SOLVERS:
        solution = m.solve(
            humanoid,
            humanoid.rest_pose(),
            [m.Position("left fingertips", target)],
            solver,
            max_iterations=2000,
        )
        reached = humanoid.forward(solution.pose).sites["left fingertips"]
        assert solution.converged, (solver, solution.why)
        assert np.linalg.norm(reached - target) <= 1e-4, solver
        assert solution.pose.within_limits()
        assert solution.goals[0].status == "met"


def test_the_analytic_limb_solver_reports_its_swivel():
    # Tolani's limb (crates/cli/tests/problems/arm7_pose.ron): found exactly in one update.
    arm = m.Skeleton.load(ARM7)
    goals = [
        m.Position("fingertips", [0.0, 1.85, 0.29]),
        m.Orientation("wrist", [180.0, 0.0, 0.0]),
    ]
    solution = m.solve(arm, arm.rest_pose(), goals, "analytic")
    assert solution.solver == "analytic" and solution.iterations == 1
    assert solution.residual < 1e-12
    assert math.isfinite(solution.swivel)
    with pytest.raises(m.Error, match="swivel"):
        m.solve(arm, arm.rest_pose(), goals, "analytic", swivel=float("nan"))


def test_goals_of_every_kind_resolve_and_solve(humanoid):
    pose = humanoid.rest_pose()
    every_kind = [
        m.Position("left fingertips", [0.3, 1.2, 0.3]),
        m.Orientation("head", [0.0, 20.0, 0.0]),
        m.Pose("left toe tip", [0.1, 0.0, 0.1], [0.0, 0.0, 0.0], weight=2.0),
        m.Aim("head top", [0.0, 1.0, 0.0], [0.0, 3.0, 1.0]),
        m.Plane("right fingertips", [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]),
        m.Line("right toe tip", [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        m.Point("pelvis", [0.0, 0.9, 0.0]),
        m.Coincide("left fingertips", "right fingertips"),
        m.CenterOfMass([0.0, 0.0, 0.0], axes="xz"),
    ]
    assert [g.kind for g in every_kind] == [
        "Position", "Orientation", "Pose", "Aim", "Plane", "Line", "Point", "Coincide",
        "CenterOfMass",
    ]
    for goal in every_kind:
        solution = m.solve(humanoid, pose, [goal], "dls", move_root=True, max_iterations=500)
        assert len(solution.goals) == 1
        assert all(np.isfinite(solution.pose.q))


def test_the_goals_are_at_the_top_level_as_the_files_name_them():
    for kind in ["Position", "Orientation", "Pose", "Aim", "Plane", "Line", "Point", "Coincide",
                 "CenterOfMass"]:
        assert getattr(m, kind) is getattr(m.goals, kind)
    assert m.Pose("left heel", [0, 0, 0], [0, 0, 0]).kind == "Pose"
    assert isinstance(m.Skeleton.load(HUMANOID).rest_pose(), m.FigurePose)


def test_an_unmet_goal_says_why(humanoid):
    far = m.solve(humanoid, humanoid.rest_pose(), [m.Position("left fingertips", [5.0, 1.0, 0.0])])
    assert not far.converged
    assert far.goals[0].status == "out_of_reach"
    assert far.goals[0].short_by > 3.0
    assert far.why and "out of reach" in far.why[0]


def test_bad_goals_raise_the_documented_exceptions(humanoid):
    pose = humanoid.rest_pose()
    with pytest.raises(m.Error, match='site "left hand" is not in skeleton "humanoid"'):
        m.solve(humanoid, pose, [m.Position("left hand", [0.0, 1.0, 0.0])])
    with pytest.raises(m.LimitError, match="goal 0"):
        m.solve(humanoid, pose, [m.Position("left fingertips", [float("nan"), 1.0, 0.0])])
    with pytest.raises(m.Error, match="solver"):
        m.solve(humanoid, pose, [m.Position("left fingertips", [0.0, 1.0, 0.0])], "newton")
    with pytest.raises(m.Error, match="axes"):
        m.CenterOfMass([0.0, 0.0, 0.0], axes="xw")
    with pytest.raises(m.Error, match='joint "left elbw"'):
        m.solve(humanoid, pose, [m.Orientation("left elbw", [0.0, 0.0, 0.0])])


def test_a_solve_agrees_with_marionette_solve(tmp_path):
    arm = m.Skeleton.load(ARM7)
    site = arm.site_names[0]
    target = [0.3, 0.4, 0.2]
    problem = tmp_path / "reach.ron"
    problem.write_text(
        f'Problem(skeleton: "{ARM7}", goals: [Position(site: "{site}", target: ({target[0]}, '
        f"{target[1]}, {target[2]}))])"
    )
    for solver in ["dls", "sdls", "pinv"]:
        expected = marionette_json("solve", problem, "--solver", solver)
        got = m.solve(arm, arm.rest_pose(), [m.Position(site, target)], solver)
        assert got.iterations == expected["iterations"]
        assert got.converged == expected["converged"]
        for joint, values in expected["pose"]["joints"].items():
            np.testing.assert_allclose(got.pose[joint], values, rtol=0, atol=1e-9)


def test_soch_s_extended_jacobian_solves_the_planar_chain():
    planar = m.Skeleton.load(REPO / "skeletons" / "planar6.ron")
    posed = planar.rest_pose()
    for k, joint in enumerate(posed.keys()):
        posed[joint] = [10.0 + 5.0 * k]
    target = planar.forward(posed).sites["tip"].tolist()
    solution = m.solve(planar, planar.rest_pose(), [m.Position("tip", target)], "extended")
    assert solution.solver == "extended"
    assert solution.converged, solution.why
    reached = planar.forward(solution.pose).sites["tip"]
    assert np.linalg.norm(reached - target) <= 1e-4
