"""Marionette from Python: pose figures by inverse kinematics, bake sequences with their locks,
retarget and clean captures, check physics, and export to BVH, glTF and JSON.

Everything here runs Marionette's own core (the same code as the ``marionette`` command and the
editor). Values are in file units: degrees for hinges, metres for lengths, +Y up. Arrays are
numpy arrays. Long work (solves, bakes, retargets, cleanups) releases the interpreter's lock, so
Python threads run it in parallel. See docs/python.md.
"""

from ._marionette import (
    Baked,
    Capture,
    Character,
    Document,
    Dof,
    Error,
    FileError,
    Frame,
    Goal,
    GoalResult,
    Joint,
    LimitError,
    FigurePose,
    Retargeted,
    Site,
    Skeleton,
    Solution,
    cleanup,
    open_character,
    read_capture,
    retarget,
    solve,
)
from . import goals
from .goals import Aim, CenterOfMass, Coincide, Line, Orientation, Plane, Point, Pose, Position

__all__ = [
    "Aim",
    "Baked",
    "Capture",
    "CenterOfMass",
    "Character",
    "Coincide",
    "Document",
    "Dof",
    "Error",
    "FigurePose",
    "FileError",
    "Frame",
    "Goal",
    "GoalResult",
    "Joint",
    "LimitError",
    "Line",
    "Orientation",
    "Plane",
    "Point",
    "Pose",
    "Position",
    "Retargeted",
    "Site",
    "Skeleton",
    "Solution",
    "cleanup",
    "goals",
    "open_character",
    "read_capture",
    "retarget",
    "solve",
]
