"""Goals of every kind the problem and document files know, named as the files name them.

``Pose`` is the goal that holds a site's whole pose (a planted foot); a figure's pose (what
``skeleton.rest_pose()`` and ``document.pose`` give) is a ``marionette.FigurePose``. Every goal
is also at the package's top level (``marionette.Position``, ``marionette.Pose``, …). Targets are in metres, orientations in degrees (Euler angles as the files write
them). Every goal takes ``weight`` (default 1) and ``priority`` (0 highest) as keywords.
"""

from ._marionette import Goal

Position = Goal.position
Orientation = Goal.orientation
Pose = Goal.pose
Aim = Goal.aim
Plane = Goal.plane
Line = Goal.line
Point = Goal.point
Coincide = Goal.coincide
CenterOfMass = Goal.center_of_mass

__all__ = [
    "Aim",
    "CenterOfMass",
    "Coincide",
    "Line",
    "Orientation",
    "Plane",
    "Point",
    "Pose",
    "Position",
]
