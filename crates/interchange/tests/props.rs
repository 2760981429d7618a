//! The props that ship in `assets/props/` (made by scripts/make-props.sh with Blender): each
//! passes the Khronos validator, is accepted as a stage prop's mesh, and has the size and the
//! centre its licence file and scripts/make-props.py say.

use std::path::{Path, PathBuf};
use std::process::Command;

use marionette_interchange::gltf::mesh::read_triangles;

fn props() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/props")
}

/// (file, full size along x, y, z in metres).
const SHIPPED: [(&str, [f64; 3]); 4] = [
    ("stick.glb", [0.04, 1.0, 0.04]),
    ("step.glb", [0.4, 0.2, 0.3]),
    ("ball.glb", [0.22, 0.22, 0.22]),
    ("cup.glb", [0.08, 0.10, 0.08]),
];

#[test]
fn every_shipped_prop_is_valid_glb_of_its_size_centred_on_its_origin() {
    let mut found: Vec<String> = std::fs::read_dir(props())
        .expect("assets/props")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".glb"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = SHIPPED.iter().map(|(n, _)| (*n).to_owned()).collect();
    listed.sort();
    assert_eq!(found, listed, "every shipped prop is listed here");
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/gltf-validator");
    assert!(
        tool.join("node_modules/gltf-validator").exists(),
        "the validator is not installed: npm ci --prefix tools/gltf-validator (scripts/test.sh does)"
    );
    for (name, size) in SHIPPED {
        let path = props().join(name);
        assert_eq!(
            marionette_document::stage::check::mesh_problem(&path),
            None,
            "{name}"
        );
        let t = read_triangles(&path).expect(name);
        assert!(!t.indices.is_empty(), "{name} has triangles");
        for axis in 0..3 {
            let (lo, hi) = t
                .positions
                .iter()
                .fold((f64::MAX, f64::MIN), |(lo, hi), p| {
                    (lo.min(p[axis]), hi.max(p[axis]))
                });
            assert!(
                (hi - lo - size[axis]).abs() < 2e-3,
                "{name}: {} m along axis {axis}, not {}",
                hi - lo,
                size[axis]
            );
            assert!((hi + lo).abs() < 1e-6, "{name} is centred on its origin");
        }
        let o = Command::new("node")
            .arg(tool.join("validate.mjs"))
            .arg(&path)
            .output()
            .expect("node");
        assert!(
            o.status.success(),
            "{name}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
