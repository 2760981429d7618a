"""Goals of every kind the problem and document files know, named as the files name them.

``marionette.goals.Pose`` is the goal that holds a site's whole pose (a planted foot); the
package's top-level ``marionette.Pose`` is a figure's pose, so this one goal is reached through
this module. Targets are in metres, orientations in degrees (Euler angles as the files write
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
