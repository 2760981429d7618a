# Authors the rigged test characters of crates/interchange/tests/data/characters/authored in
# Blender 3.4, headless, the way users' files come to Marionette: a humanoid armature named after
# one convention (Rigify's metarig, Mixamo with its "mixamorig:" prefix and its centimetre
# armature scaled by 0.01, Unreal Engine), in a T-pose, an A-pose or with the arms down, a body of
# one cylinder per bone skinned to it (blended at the joints), exported as binary glTF; and a VRM
# (the Rigify figure renamed as VRoid names its bones, with VRM 1.0's humanoid map). Two of them
# are also exported as FBX by Blender's FBX exporter (binary FBX 7.4, no leaf bones): the Mixamo
# figure as Mixamo's files are, in centimetres with Y up, and the Rigify figure with Z up
# (`scripts/fbx-to-ascii.py` then writes the Mixamo one as ASCII FBX: mixamo_apose_ascii.fbx).
# The Mixamo figure is then animated with two actions (a wave with a step, a squat), written as
# an animation-only FBX with one take per action (what Mixamo's "without skin" downloads are)
# and each action as BVH by Blender's BVH exporter, the same motion read two ways.
# Usage: blender -b --factory-startup --python scripts/make-test-characters.py -- OUT_DIR
import json
import math
import struct
import sys

import bpy
from mathutils import Matrix, Vector

out_dir = sys.argv[sys.argv.index('--') + 1]

# The bones, Blender's frame (Z up, the figure faces -Y, its left is +X): key, parent, head, tail.
SPINE = [
    ('hips', None, (0, 0, 0.95), (0, 0, 1.08)),
    ('spine', 'hips', (0, 0, 1.08), (0, 0, 1.22)),
    ('chest', 'spine', (0, 0, 1.22), (0, 0, 1.35)),
    ('upper_chest', 'chest', (0, 0, 1.35), (0, 0, 1.48)),
    ('neck', 'upper_chest', (0, 0, 1.48), (0, 0, 1.56)),
    ('neck2', 'neck', (0, 0, 1.56), (0, 0, 1.62)),
    ('head', 'neck2', (0, 0, 1.62), (0, 0, 1.82)),
]


def arm(side, pose):
    s = 1 if side == 'L' else -1
    shoulder = Vector((s * 0.03, 0, 1.45))
    start = Vector((s * 0.17, 0, 1.45))
    if pose == 'T':
        d = Vector((s, 0, 0))
        bend = Vector((0, 0, 0))
    elif pose == 'A':
        d = Vector((s * math.cos(math.radians(45)), 0, -math.sin(math.radians(45))))
        bend = Vector((0, -0.01, 0))
    else:  # arms down, the elbows a little bent forward
        d = Vector((s * 0.08, 0, -1)).normalized()
        bend = Vector((0, -0.05, 0))
    elbow = start + d * 0.29 + bend
    wrist = elbow + d * 0.26 - bend
    hand = wrist + d * 0.18
    return [
        (f'shoulder_{side}', 'upper_chest', shoulder, start),
        (f'upper_arm_{side}', f'shoulder_{side}', start, elbow),
        (f'forearm_{side}', f'upper_arm_{side}', elbow, wrist),
        (f'hand_{side}', f'forearm_{side}', wrist, hand),
    ]


def leg(side):
    s = 1 if side == 'L' else -1
    return [
        (f'thigh_{side}', 'hips', (s * 0.1, 0, 0.95), (s * 0.1, -0.02, 0.52)),
        (f'shin_{side}', f'thigh_{side}', (s * 0.1, -0.02, 0.52), (s * 0.1, 0, 0.09)),
        (f'foot_{side}', f'shin_{side}', (s * 0.1, 0, 0.09), (s * 0.1, -0.13, 0.02)),
        (f'toe_{side}', f'foot_{side}', (s * 0.1, -0.13, 0.02), (s * 0.1, -0.2, 0.02)),
    ]


def names(convention):
    rigify = {'hips': 'spine', 'spine': 'spine.001', 'chest': 'spine.002',
              'upper_chest': 'spine.003', 'neck': 'spine.004', 'neck2': 'spine.005',
              'head': 'spine.006'}
    mixamo = {'hips': 'mixamorig:Hips', 'spine': 'mixamorig:Spine', 'chest': 'mixamorig:Spine1',
              'upper_chest': 'mixamorig:Spine2', 'neck': 'mixamorig:Neck',
              'neck2': 'mixamorig:Neck1', 'head': 'mixamorig:Head'}
    ue = {'hips': 'pelvis', 'spine': 'spine_01', 'chest': 'spine_02', 'upper_chest': 'spine_03',
          'neck': 'neck_01', 'neck2': 'neck_02', 'head': 'head'}
    vroid = {'hips': 'J_Bip_C_Hips', 'spine': 'J_Bip_C_Spine', 'chest': 'J_Bip_C_Chest',
             'upper_chest': 'J_Bip_C_UpperChest', 'neck': 'J_Bip_C_Neck', 'neck2': 'J_Adj_C_Neck2',
             'head': 'J_Bip_C_Head'}
    for side, word, low in (('L', 'Left', 'l'), ('R', 'Right', 'r')):
        for key, r, m, u, v in (
            ('shoulder', 'shoulder', 'Shoulder', 'clavicle', 'Shoulder'),
            ('upper_arm', 'upper_arm', 'Arm', 'upperarm', 'UpperArm'),
            ('forearm', 'forearm', 'ForeArm', 'lowerarm', 'LowerArm'),
            ('hand', 'hand', 'Hand', 'hand', 'Hand'),
            ('thigh', 'thigh', 'UpLeg', 'thigh', 'UpperLeg'),
            ('shin', 'shin', 'Leg', 'calf', 'LowerLeg'),
            ('foot', 'foot', 'Foot', 'foot', 'Foot'),
            ('toe', 'toe', 'ToeBase', 'ball', 'ToeBase'),
        ):
            rigify[f'{key}_{side}'] = f'{r}.{side}'
            mixamo[f'{key}_{side}'] = f'mixamorig:{word}{m}'
            ue[f'{key}_{side}'] = f'{u}_{low}'
            vroid[f'{key}_{side}'] = f'J_Bip_{side}_{v}'
    return {'rigify': rigify, 'mixamo': mixamo, 'ue': ue, 'vroid': vroid}[convention]


def build(name, convention, pose, scale=1.0, tail=False):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bones = SPINE + arm('L', pose) + arm('R', pose) + leg('L') + leg('R')
    if tail:
        bones.append(('tail', 'hips', (0, 0.08, 0.98), (0, 0.35, 0.9)))
    rename = names(convention)
    arm_data = bpy.data.armatures.new(name + ' armature')
    rig = bpy.data.objects.new(name + ' rig', arm_data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode='EDIT')
    made = {}
    for key, parent, head, tail_at in bones:
        b = arm_data.edit_bones.new(rename.get(key, key))
        b.head = Vector(head) / scale
        b.tail = Vector(tail_at) / scale
        if parent:
            b.parent = made[parent]
            b.use_connect = False
        made[key] = b
    bpy.ops.object.mode_set(mode='OBJECT')
    rig.scale = (scale, scale, scale)
    # The body: a cylinder per bone, rigid to its bone but half the parent's at its start.
    mesh = bpy.data.meshes.new(name + ' body')
    verts, faces, weights = [], [], []
    sides = 8
    for key, parent, head, tail_at in bones:
        h, t = Vector(head) / scale, Vector(tail_at) / scale
        axis = (t - h)
        length = axis.length
        radius = (0.06 if key in ('hips', 'spine', 'chest', 'upper_chest') else
                  0.08 if key == 'head' else 0.04 if 'thigh' in key else 0.03) / scale
        d = axis.normalized()
        helper = Vector((0, 0, 1)) if abs(d.z) < 0.9 else Vector((1, 0, 0))
        u = d.cross(helper).normalized()
        v = d.cross(u)
        base = len(verts)
        for ring, at in enumerate((h, t)):
            for k in range(sides):
                a = 2 * math.pi * k / sides
                verts.append(at + (u * math.cos(a) + v * math.sin(a)) * radius)
                w = {rename.get(key, key): 1.0}
                if ring == 0 and parent:
                    w = {rename.get(key, key): 0.5, rename.get(parent, parent): 0.5}
                weights.append(w)
        for k in range(sides):
            k2 = (k + 1) % sides
            faces.append((base + k, base + k2, base + sides + k2, base + sides + k))
        faces.append(tuple(base + k for k in range(sides)))
        faces.append(tuple(base + sides + k for k in reversed(range(sides))))
    mesh.from_pydata([tuple(v) for v in verts], [], faces)
    mesh.update()
    body = bpy.data.objects.new(name + ' body', mesh)
    bpy.context.scene.collection.objects.link(body)
    body.parent = rig
    for vi, w in enumerate(weights):
        for group, weight in w.items():
            g = body.vertex_groups.get(group) or body.vertex_groups.new(name=group)
            g.add([vi], weight, 'REPLACE')
    mod = body.modifiers.new('skin', 'ARMATURE')
    mod.object = rig
    material = bpy.data.materials.new(name + ' skin')
    material.diffuse_color = (0.35, 0.55, 0.8, 1.0)
    material.use_nodes = True
    material.node_tree.nodes['Principled BSDF'].inputs['Base Color'].default_value = (0.35, 0.55, 0.8, 1.0)
    body.data.materials.append(material)
    path = f'{out_dir}/{name}.glb'
    bpy.ops.export_scene.gltf(filepath=path, export_format='GLB', export_animations=False,
                              export_apply=False)
    return path


def export_fbx(name, up):
    """The scene just built as FBX, `up` ('Y' or 'Z') its up axis, in centimetres."""
    forward = '-Z' if up == 'Y' else 'Y'
    bpy.ops.export_scene.fbx(filepath=f'{out_dir}/{name}.fbx', add_leaf_bones=False,
                             axis_up=up, axis_forward=forward, apply_unit_scale=True,
                             bake_anim=False, use_armature_deform_only=False)


def bvh_y_up(path):
    """Blender's BVH exporter writes Blender's axes (Z up, the figure facing -Y); captures are
    Y up: every OFFSET (x, y, z) becomes (x, z, -y), and each channel is renamed after the axis
    it now turns or moves along (Y becomes Z, negated; Z becomes Y)."""
    rename = {'X': 'X', 'Y': 'Z', 'Z': 'Y'}
    lines = open(path).read().split('\n')
    negate = []  # per channel in file order: whether its values are negated
    out = []
    motion = False
    for line in lines:
        words = line.split()
        if motion and words and words[0] not in ('Frames:', 'Frame'):
            values = [float(v) for v in words]
            out.append(' '.join(f'{-v if n else v:.6f}' for v, n in zip(values, negate)))
        elif words[:1] == ['OFFSET']:
            x, y, z = (float(v) for v in words[1:4])
            indent = line[:len(line) - len(line.lstrip())]
            out.append(f'{indent}OFFSET {x:.6f} {z:.6f} {-y:.6f}')
        elif words[:1] == ['CHANNELS']:
            names = [rename[c[0]] + c[1:] for c in words[2:]]
            negate.extend(c[0] == 'Y' for c in words[2:])
            indent = line[:len(line) - len(line.lstrip())]
            out.append(f'{indent}CHANNELS {words[1]} ' + ' '.join(names))
        else:
            if words[:1] == ['MOTION']:
                motion = True
            out.append(line)
    open(path, 'w').write('\n'.join(out))


def export_animation(name, convention):
    """Two actions on the figure just built, written as one animation-only FBX (a take per
    action, named after it) and as one BVH per action."""
    rename = names(convention)
    rig = bpy.data.objects[name + ' rig']
    bpy.context.scene.render.fps = 30
    rig.animation_data_create()
    actions = {
        # frame: {bone key: (x, y, z) degrees}, hips location (metres, Blender's axes)
        'wave': [
            (1, {}, (0, 0, 0)),
            (10, {'upper_arm_R': (0, 0, 60), 'forearm_R': (0, 0, 40), 'thigh_L': (-30, 0, 0),
                  'shin_L': (40, 0, 0), 'spine': (0, 15, 5)}, (0.0, -0.05, -0.02)),
            (20, {'upper_arm_R': (20, 0, 80), 'forearm_R': (0, 0, -30), 'thigh_L': (-10, 0, 0),
                  'shin_L': (10, 0, 0), 'spine': (0, -10, -5), 'head': (15, 0, 20)},
             (0.02, -0.12, 0.0)),
            (30, {}, (0.0, -0.15, 0.0)),
        ],
        'squat': [
            (1, {}, (0, 0, 0)),
            (15, {'thigh_L': (-70, 0, -5), 'thigh_R': (-70, 0, 5), 'shin_L': (110, 0, 0),
                  'shin_R': (110, 0, 0), 'foot_L': (-35, 0, 0), 'foot_R': (-35, 0, 0),
                  'spine': (25, 0, 0), 'upper_arm_L': (-60, 0, 0), 'upper_arm_R': (-60, 0, 0)},
             (0.0, 0.08, -0.3)),
            (30, {}, (0, 0, 0)),
        ],
    }
    made = []
    for action_name, keys in actions.items():
        action = bpy.data.actions.new(action_name)
        rig.animation_data.action = action
        for frame, turns, hips in keys:
            for bone in rig.pose.bones:
                bone.rotation_mode = 'XYZ'
                key = next((k for k, v in rename.items() if v == bone.name), bone.name)
                degrees = turns.get(key, (0, 0, 0))
                bone.rotation_euler = tuple(math.radians(d) for d in degrees)
                bone.keyframe_insert('rotation_euler', frame=frame)
            root = rig.pose.bones[rename['hips']]
            # Pose-bone locations are in the bone's rest frame (Y along the bone, which points
            # up), in the armature's units (centimetres for the Mixamo figure).
            scale = rig.scale[0]
            root.location = (hips[0] / scale, hips[2] / scale, -hips[1] / scale)
            root.keyframe_insert('location', frame=frame)
        action.use_fake_user = True
        made.append(action)
    for action in made:
        rig.animation_data.action = action
        bpy.context.scene.frame_start = 1
        bpy.context.scene.frame_end = 30
        bpy.ops.object.select_all(action='DESELECT')
        rig.select_set(True)
        bpy.context.view_layer.objects.active = rig
        path = f'{out_dir}/{name}_{action.name}.bvh'
        bpy.ops.export_anim.bvh(filepath=path, frame_start=1, frame_end=30, rotate_mode='NATIVE',
                                root_transform_only=False)
        bvh_y_up(path)
    rig.animation_data.action = made[0]
    bpy.ops.object.select_all(action='DESELECT')
    rig.select_set(True)
    bpy.ops.export_scene.fbx(filepath=f'{out_dir}/{name}_animation.fbx', use_selection=True,
                             object_types={'ARMATURE'}, add_leaf_bones=False, axis_up='Y',
                             axis_forward='-Z', apply_unit_scale=True, bake_anim=True,
                             bake_anim_use_all_actions=True, bake_anim_use_nla_strips=False,
                             bake_anim_force_startend_keying=True, bake_anim_simplify_factor=0.0)


def make_vrm(glb_path, vrm_path):
    """The glb with VRM 1.0's humanoid map (VRMC_vrm) added, as a .vrm."""
    data = open(glb_path, 'rb').read()
    json_len = struct.unpack('<I', data[12:16])[0]
    doc = json.loads(data[20:20 + json_len])
    bin_chunk = data[20 + json_len:]
    vrm_names = {
        'J_Bip_C_Hips': 'hips', 'J_Bip_C_Spine': 'spine', 'J_Bip_C_Chest': 'chest',
        'J_Bip_C_UpperChest': 'upperChest', 'J_Bip_C_Neck': 'neck', 'J_Bip_C_Head': 'head',
    }
    for side, word in (('L', 'left'), ('R', 'right')):
        for bone, vrm in (('Shoulder', 'Shoulder'), ('UpperArm', 'UpperArm'),
                          ('LowerArm', 'LowerArm'), ('Hand', 'Hand'), ('UpperLeg', 'UpperLeg'),
                          ('LowerLeg', 'LowerLeg'), ('Foot', 'Foot'), ('ToeBase', 'Toes')):
            vrm_names[f'J_Bip_{side}_{bone}'] = word + vrm
    human = {}
    for i, node in enumerate(doc['nodes']):
        if node.get('name') in vrm_names:
            human[vrm_names[node['name']]] = {'node': i}
    doc.setdefault('extensionsUsed', []).append('VRMC_vrm')
    doc.setdefault('extensions', {})['VRMC_vrm'] = {
        'specVersion': '1.0',
        'meta': {'name': 'Marionette test figure', 'version': '1', 'authors': ['Marionette'],
                 'licenseUrl': 'https://vrm.dev/licenses/1.0/', 'avatarPermission': 'everyone',
                 'commercialUsage': 'corporation', 'allowRedistribution': True,
                 'modification': 'allowModificationRedistribution'},
        'humanoid': {'humanBones': human},
    }
    text = json.dumps(doc).encode()
    text += b' ' * (-len(text) % 4)
    total = 12 + 8 + len(text) + len(bin_chunk)
    with open(vrm_path, 'wb') as f:
        f.write(b'glTF' + struct.pack('<II', 2, total) + struct.pack('<I', len(text)) + b'JSON')
        f.write(text)
        f.write(bin_chunk)


build('rigify_tpose', 'rigify', 'T')
export_fbx('rigify_tpose_zup', 'Z')
build('mixamo_apose', 'mixamo', 'A', scale=0.01)
export_fbx('mixamo_apose', 'Y')
export_animation('mixamo_apose', 'mixamo')
build('ue_armsdown_tail', 'ue', 'down', tail=True)
vroid = build('vroid_tpose', 'vroid', 'T')
make_vrm(vroid, f'{out_dir}/vroid_tpose.vrm')
