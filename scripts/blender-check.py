# Opens Marionette's BVH and glTF exports in Blender (headless) and compares every joint's world
# position with the JSON export's joints_world (Marionette's own forward kinematics), frame by
# frame. Blender is Z-up: its (x, y, z) is our (x, -z, y). Prints one line per file and exits 1
# when a joint is further than the tolerance.
# Usage: blender -b --factory-startup --python scripts/blender-check.py -- FRAMES.json FILE.bvh FILE.glb
# (FILE.bvh may be "-" to check the glTF alone: a character's export, whose bones are its nodes).
import builtins
import json
import sys

import bpy
from mathutils import Vector

# Blender 3.4's BVH importer opens files with mode 'rU', which Python 3.11 refuses.
_open = builtins.open
def _open_without_u(file, mode='r', *args, **kwargs):
    return _open(file, mode.replace('U', ''), *args, **kwargs)
builtins.open = _open_without_u

# Its glTF importer needs numpy (Debian: python3-numpy) and uses `numpy.bool`, which numpy 1.24
# removed.
import numpy
if not hasattr(numpy, 'bool'):
    numpy.bool = bool

args = sys.argv[sys.argv.index('--') + 1:]
frames_file, bvh_file, glb_file = args
with _open(frames_file) as f:
    expected = json.load(f)
fps = expected['fps']
frames = expected['frames']
TOLERANCE = 1e-5

def ours(p):
    return Vector((p[0], -p[2], p[1]))

def armature():
    arms = [o for o in bpy.context.scene.objects if o.type == 'ARMATURE']
    assert len(arms) == 1, arms
    return arms[0]

def clear():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = int(round(fps))

def compare(label, name_of, frame_of):
    arm = armature()
    scene = bpy.context.scene
    worst, where = 0.0, ''
    for k, frame in enumerate(frames):
        scene.frame_set(frame_of(k))
        for joint, position in frame['joints_world'].items():
            bone = arm.pose.bones.get(name_of(joint))
            if bone is None:
                print(f'{label}: no bone for joint {joint!r}')
                sys.exit(1)
            got = arm.matrix_world @ bone.head
            d = (got - ours(position)).length
            if d > worst:
                worst, where = d, f'{joint} at frame {k}'
    print(f'{label}: {len(frames)} frames, {len(frames[0]["joints_world"])} joints, largest gap {worst:.3g} m ({where})')
    return worst

bvh_gap = 0.0
if bvh_file != '-':
    clear()
    bpy.ops.import_anim.bvh(filepath=bvh_file, frame_start=1, update_scene_fps=True, rotate_mode='NATIVE')
    bvh_gap = compare('BVH', lambda j: '_'.join(j.split()), lambda k: k + 1)

glb_gap = 0.0
if glb_file != '-':
    clear()
    bpy.ops.import_scene.gltf(filepath=glb_file)
    arm = armature()
    action = arm.animation_data.action if arm.animation_data else None
    start = int(round(action.frame_range[0])) if action else 0
    glb_gap = compare('glTF (' + glb_file.rsplit('/', 1)[-1] + ')', lambda j: j, lambda k: start + k)

sys.exit(0 if max(bvh_gap, glb_gap) <= TOLERANCE else 1)
