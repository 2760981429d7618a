//! Issue 21's numbers: importing each test character (reading the glTF, or the FBX and turning
//! it into glTF, finding the rig and the humanoid, reading the skinned meshes, making and checking the skeleton), and one pick on a
//! character's mesh as the editor does it when the pointer moves (every vertex skinned for the
//! pose shown, then the ray against every triangle); best of `runs`.

use std::path::{Path, PathBuf};

use marionette_interchange::character::Character;
use marionette_interchange::character::build::rest_world;
use nalgebra::Vector3;

use crate::interchange::best_ms;
use crate::table::Table;

/// The characters the tests read, with the ones authored in Blender (glTF, and FBX).
pub fn files() -> Vec<PathBuf> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../interchange/tests/data/characters");
    let mut files: Vec<PathBuf> = [data.clone(), data.join("authored")]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "glb" || e == "gltf" || e == "vrm" || e == "fbx")
        })
        // An FBX file with no skin is an animation, not a character.
        .filter(|p| {
            marionette_interchange::open::open(p, Default::default())
                .is_ok_and(|o| o.kind() == marionette_interchange::file_kind::FileKind::Character)
        })
        .collect();
    files.sort();
    files
}

/// The test characters as glTF (an FBX test character is one of them written as FBX).
pub fn gltf_files() -> Vec<PathBuf> {
    files()
        .into_iter()
        .filter(|p| p.extension().is_none_or(|e| e != "fbx"))
        .collect()
}

/// The characters table.
pub fn table(runs: usize) -> Table {
    let mut table = Table::new(
        format!("Characters: import, and one pick on the skinned mesh; best of {runs}"),
        &["character", "joints", "triangles", "import ms", "pick µs"],
    );
    for path in files() {
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let (ms, imported) = best_ms(runs, || {
            let c = Character::open(&path).expect("the test character reads");
            let s = c.import("figure", "figure.glb").expect("imports").skeleton;
            (c, s)
        });
        let (c, s) = imported;
        let triangles: usize = c.mesh.primitives.iter().map(|p| p.indices.len() / 3).sum();
        // A ray through the middle of the figure, from the front.
        let world = rest_world(&c.rig);
        let middle = c
            .rig
            .joints
            .iter()
            .map(|j| j.position)
            .sum::<Vector3<f64>>()
            / c.rig.joints.len() as f64;
        let origin = middle + Vector3::z() * 10.0 * c.rig.height();
        let (pick_ms, _) = best_ms(runs.max(20), || {
            c.mesh.pick(&world, &origin, &-Vector3::z())
        });
        table.row(vec![
            name,
            s.joints().len().to_string(),
            triangles.to_string(),
            format!("{ms:.2}"),
            format!("{:.0}", pick_ms * 1e3),
        ]);
    }
    table
}
