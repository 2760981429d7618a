# Opens an FBX character with Blender's own FBX importer (headless) and compares every bone's
# head, at rest, with where Marionette's import puts the joint of the same name (the JSON of
# `marionette fk SKELETON.ron --json`: its joints' world positions). Blender is Z-up: its
# (x, y, z) is our (x, -z, y). Prints one line and exits 1 when a joint is further than 1e-5 m
# times the figure's size (at least 1).
# Usage: blender -b --factory-startup --python scripts/blender-fbx-check.py -- FILE.fbx JOINTS.json
import json
import sys

import bpy
from mathutils import Vector

fbx_file, joints_file = sys.argv[sys.argv.index('--') + 1:]
with open(joints_file) as f:
    ours = {name: Vector((p[0], -p[2], p[1])) for name, p in json.load(f)['joints'].items()}
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=fbx_file, automatic_bone_orientation=False)
heads = {}
for arm in (o for o in bpy.context.scene.objects if o.type == 'ARMATURE'):
    for bone in arm.data.bones:
        heads[bone.name] = arm.matrix_world @ bone.head_local
size = max(1.0, max(p.z for p in ours.values()) - min(p.z for p in ours.values()))
compared = [(name, (heads[name] - p).length) for name, p in ours.items() if name in heads]
worst = max(compared, key=lambda c: c[1]) if compared else ('none', float('inf'))
print(f'FBX {fbx_file}: {len(compared)} of {len(ours)} joints are bones in Blender, '
      f'the farthest {worst[0]} at {worst[1]:.2e} m')
if not compared or worst[1] > 1e-5 * size:
    sys.exit(1)
