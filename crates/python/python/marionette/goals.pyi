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
