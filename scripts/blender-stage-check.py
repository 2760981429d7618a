# Opens a stage's glTF export (every figure and prop in one file) in Blender (headless) and
# compares, frame by frame, every figure's joints with that figure's JSON export (its world
# positions on the stage) and every prop's place with the JSON's "props". Blender is Z-up: its
# (x, y, z) is our (x, -z, y). Prints one line per figure and per prop; exits 1 when anything is
# further than 1e-5 m (or 1e-5 rad for a prop's orientation).
# Usage: blender -b --factory-startup --python scripts/blender-stage-check.py -- STAGE.glb NAME=FRAMES.json ...
import json
import math
import sys

import bpy
from mathutils import Quaternion, Vector

# Blender 3.4's glTF importer uses `numpy.bool`, which numpy 1.24 removed.
import numpy
if not hasattr(numpy, 'bool'):
    numpy.bool = bool

args = sys.argv[sys.argv.index('--') + 1:]
glb_file, figures = args[0], [a.split('=', 1) for a in args[1:]]
TOLERANCE = 1e-5

def ours(p):
    return Vector((p[0], -p[2], p[1]))

def ours_rotation(q):
    # Our (x, y, z, w) about our axes; Blender's axes are (x, -z, y).
    return Quaternion((q[3], q[0], -q[2], q[1]))

expected = {}
for name, path in figures:
    with open(path) as f:
        expected[name] = json.load(f)
fps = next(iter(expected.values()))['fps']
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.context.scene.render.fps = int(round(fps))
bpy.ops.import_scene.gltf(filepath=glb_file)
scene = bpy.context.scene
arms = [o for o in scene.objects if o.type == 'ARMATURE']
starts = [o.animation_data.action.frame_range[0] for o in scene.objects
          if o.animation_data and o.animation_data.action]
start = int(round(min(starts))) if starts else 0

def bone(name):
    for arm in arms:
        b = arm.pose.bones.get(name)
        if b is not None:
            return arm, b
    print(f'no bone {name!r} in {[a.name for a in arms]}')
    sys.exit(1)

worst_all = 0.0
for name, data in expected.items():
    frames = data['frames']
    worst, where = 0.0, ''
    for k, frame in enumerate(frames):
        scene.frame_set(start + k)
        for joint, position in frame['joints_world'].items():
            arm, b = bone(f'{name}/{joint}')
            d = ((arm.matrix_world @ b.head) - ours(position)).length
            if d > worst:
                worst, where = d, f'{joint} at frame {k}'
    print(f'figure {name}: {len(frames)} frames, {len(frames[0]["joints_world"])} joints, largest gap {worst:.3g} m ({where})')
    worst_all = max(worst_all, worst)

frames = next(iter(expected.values()))['frames']
for prop in frames[0]['props']:
    obj = scene.objects.get(prop)
    if obj is None:
        print(f'no object {prop!r}')
        sys.exit(1)
    worst, worst_angle = 0.0, 0.0
    for k, frame in enumerate(frames):
        scene.frame_set(start + k)
        place = frame['props'][prop]
        got_t = obj.matrix_world.to_translation()
        worst = max(worst, (got_t - ours(place['position'])).length)
        got_q = obj.matrix_world.to_quaternion()
        want_q = ours_rotation(place['rotation'])
        # The angle between them, well conditioned near zero (acos of a dot product is not).
        diff = want_q.inverted() @ got_q
        worst_angle = max(worst_angle, 2.0 * math.atan2(Vector((diff.x, diff.y, diff.z)).length, abs(diff.w)))
    print(f'prop {prop}: {len(frames)} frames, largest gap {worst:.3g} m, {worst_angle:.3g} rad')
    worst_all = max(worst_all, worst, worst_angle)

sys.exit(0 if worst_all <= TOLERANCE else 1)
