"""Makes the props that ship in assets/props/ (run by scripts/make-props.sh with Blender 3.4).

Each prop is one mesh centred on its origin, in metres, written as a binary glTF file. Blender is
Z-up and its glTF exporter writes +Y up, so a shape made along Blender's Z axis lies along the
file's (and the stage's) Y axis, as the stage's Cylinder shape does.
"""
import sys

import bpy

out = sys.argv[sys.argv.index("--") + 1]

# name: (maker, arguments): sizes as in docs/file-formats.md's prop shapes.
PROPS = {
    # A stick to hand over: radius 2 cm, 1 m long along y.
    "stick": (bpy.ops.mesh.primitive_cylinder_add, dict(radius=0.02, depth=1.0, vertices=16)),
    # A step to stand on: 40 cm wide (x), 20 cm high (y), 30 cm deep (z).
    "step": (bpy.ops.mesh.primitive_cube_add, dict(size=1.0)),
    # A ball: radius 11 cm.
    "ball": (bpy.ops.mesh.primitive_uv_sphere_add, dict(radius=0.11, segments=24, ring_count=12)),
    # A cup: radius 4 cm, 10 cm high along y.
    "cup": (bpy.ops.mesh.primitive_cylinder_add, dict(radius=0.04, depth=0.10, vertices=24)),
}

for name, (make, args) in PROPS.items():
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.delete()
    make(location=(0.0, 0.0, 0.0), **args)
    thing = bpy.context.active_object
    thing.name = name
    if name == "step":
        # Blender's (x, y, z) become the file's (x, z, -y): 0.4 wide, 0.3 deep, 0.2 high.
        thing.scale = (0.4, 0.3, 0.2)
        bpy.ops.object.transform_apply(scale=True)
    bpy.ops.export_scene.gltf(
        filepath=f"{out}/{name}.glb",
        export_format="GLB",
        use_selection=True,
        export_materials="NONE",
        export_yup=True,
    )
