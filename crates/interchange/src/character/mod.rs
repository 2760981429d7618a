//! A rigged character from a glTF 2.0 file (`.glb`, `.gltf`, `.vrm`) as a skeleton Marionette
//! poses: the skin's joints become the skeleton's joints with their names, hierarchy and rest
//! transforms ([`rig`]); a humanoid is recognised by the file's VRM map, the joints' names or
//! the tree's shape ([`humanoid`]) and gets anatomical hinges, limits, limbs the analytic
//! solver serves, groups and sites ([`build`]); the skinned meshes are read so the editor can
//! find the surface under the cursor as drawn ([`skinning`]); its nodes follow a pose
//! ([`posing`]); and the character is written back with its meshes, materials and skin
//! untouched and the pose or a baked sequence as an animation ([`export`]). Every front end
//! imports a character through [`import_of`], the file opened by [`crate::open::open`].

pub mod build;
mod error;
pub mod export;
pub mod humanoid;
pub mod posing;
pub mod rig;
pub mod skinning;

use std::path::Path;

use marionette_skeleton::Skeleton;
use marionette_skeleton::format::SkeletonFile;

use crate::fbx::{FbxContent, fbx_content, looks_like_fbx};
use crate::gltf::GltfError;
use crate::gltf::read::GltfFile;
pub use error::CharacterError;
use humanoid::{HumanBone, Humanoid, Method};
use marionette_skeleton::ron_io::{MAX_DATA_BYTES, read_bytes};
use rig::Rig;
use skinning::CharacterMesh;

/// A character file, read: its glTF, its rig, its humanoid (or why it is not one) and its
/// skinned meshes.
#[derive(Debug, Clone)]
pub struct Character {
    /// The file.
    pub file: GltfFile,
    /// The skin's joints.
    pub rig: Rig,
    /// The humanoid recognised, or why none was.
    pub humanoid: Result<Humanoid, String>,
    /// The skinned triangles.
    pub mesh: CharacterMesh,
}

/// A character imported as a skeleton.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The skeleton file's contents.
    pub skeleton_file: SkeletonFile,
    /// The skeleton.
    pub skeleton: Skeleton,
}

/// A character file imported as the skeleton that will be written at a given path.
#[derive(Debug, Clone)]
pub struct CharacterImport {
    /// The character read.
    pub character: Character,
    /// Its skeleton, named after the file.
    pub imported: Imported,
    /// The character file as the skeleton names it (relative to the skeleton's folder).
    pub skin: String,
}

/// The skeleton of `character`, read from `path`, to be written at `skeleton_out`: named after
/// the file's stem, naming the file as its skin by a path relative to `skeleton_out`'s folder.
/// `marionette import`, the editor's import and the fuzzer all come here (the file opened by
/// [`crate::open::open`]).
pub fn import_of(
    character: Character,
    path: &Path,
    skeleton_out: &Path,
) -> Result<CharacterImport, CharacterError> {
    let name = path.file_stem().map_or_else(
        || "character".to_owned(),
        |s| s.to_string_lossy().into_owned(),
    );
    let folder = match skeleton_out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let skin = marionette_document::relative_path(folder, path);
    let imported = character.import(&name, &skin)?;
    Ok(CharacterImport {
        character,
        imported,
        skin,
    })
}

/// The character file at `path` as glTF: read as it is, or an FBX file converted (read once;
/// an FBX animation without a skinned mesh is refused as not a character).
pub fn open_as_gltf(path: &Path) -> Result<GltfFile, CharacterError> {
    let bytes = read_bytes(path, MAX_DATA_BYTES, "a character").map_err(|e| GltfError::Io {
        file: path.display().to_string(),
        why: e.to_string(),
    })?;
    match gltf_or_take(&bytes, path, None)? {
        CharacterBytes::Gltf(file) => Ok(file),
        CharacterBytes::Take(_) => Err(CharacterError::Fbx(crate::fbx::FbxError {
            file: path.display().to_string(),
            why: "it holds no skinned mesh: an animation, not a character (import it as a \
                  capture)"
                .into(),
        })),
    }
}

/// What a character file's bytes hold, read from `path`: its glTF (as it is, or an FBX file's
/// scene converted), or, for an FBX file without a skinned mesh, the take `take` names (else its
/// first), from the same load.
pub(crate) enum CharacterBytes {
    /// The character's glTF.
    Gltf(GltfFile),
    /// An FBX animation's take.
    Take(crate::fbx::capture::FbxCapture),
}

/// The glTF or the FBX take in a character file's `bytes` ([`CharacterBytes`]).
pub(crate) fn gltf_or_take(
    bytes: &[u8],
    path: &Path,
    take: Option<&str>,
) -> Result<CharacterBytes, CharacterError> {
    if !looks_like_fbx(bytes) {
        return Ok(CharacterBytes::Gltf(GltfFile::from_bytes(bytes, path)?));
    }
    Ok(match fbx_content(bytes, path, take)? {
        FbxContent::Character(glb) => CharacterBytes::Gltf(GltfFile::from_bytes(&glb, path)?),
        FbxContent::Take(take) => CharacterBytes::Take(take),
    })
}

/// Whether the file at `path` starts as an FBX file does (false when it cannot be read: the
/// glTF reader then says why).
pub fn is_fbx(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .is_ok_and(|_| looks_like_fbx(&head))
}

impl Character {
    /// Reads the character file at `path`: glTF (`.glb`, `.gltf`, `.vrm`) or FBX, told by its
    /// first bytes (an FBX is read as the glTF binary [`fbx_to_glb`] makes of it).
    pub fn open(path: &Path) -> Result<Character, CharacterError> {
        Character::from_file(open_as_gltf(path)?)
    }

    /// The character in an already read glTF file.
    pub fn from_file(file: GltfFile) -> Result<Character, CharacterError> {
        let rig = Rig::of(&file)?;
        let mesh = CharacterMesh::read(&file, &rig)?;
        let humanoid = humanoid::recognise(&file, &rig);
        Ok(Character {
            file,
            rig,
            humanoid,
            mesh,
        })
    }

    /// Its skeleton, named `name`, naming `skin_file` (the character file, as the skeleton file
    /// will refer to it) as its skin.
    pub fn import(&self, name: &str, skin_file: &str) -> Result<Imported, CharacterError> {
        let vertices = self.mesh.vertices_by_joint(&build::rest_world(&self.rig));
        let skeleton_file = build::skeleton_file(
            name,
            &self.rig,
            self.humanoid.as_ref().ok(),
            &vertices,
            skin_file,
        );
        let skeleton =
            Skeleton::from_file(skeleton_file.clone(), &self.file.file()).map_err(|e| {
                CharacterError::Skeleton {
                    file: self.file.file(),
                    why: e.to_string(),
                }
            })?;
        Ok(Imported {
            skeleton_file,
            skeleton,
        })
    }

    /// What was recognised and what was not, line by line, for the user.
    pub fn report(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} joints in the skin ({} skinned primitives)",
            self.rig.joints.len(),
            self.mesh.primitives.len()
        )];
        match &self.humanoid {
            Ok(h) => {
                let how = match h.method {
                    Method::Vrm => "the file's VRM humanoid map",
                    Method::Names => "the joints' names",
                    Method::NamesAndShape => "the joints' names and the tree's shape",
                    Method::Shape => "the tree's shape (the names follow no convention)",
                };
                lines.push(format!("humanoid, recognised by {how}"));
                if !h.sides_named {
                    lines.push(
                        "sides taken from the glTF convention (the figure faces +Z, its left is +X)"
                            .into(),
                    );
                }
                for ((bone, j), why) in h.bones.iter().zip(&h.why) {
                    lines.push(format!(
                        "  {:<14} {:<24} by {why}",
                        bone.vrm_name(),
                        self.rig.joints[*j].name
                    ));
                }
                let absent: Vec<&str> = HumanBone::ALL
                    .into_iter()
                    .filter(|b| h.joint(*b).is_none())
                    .map(HumanBone::vrm_name)
                    .collect();
                if !absent.is_empty() {
                    lines.push(format!("  not found (optional): {}", absent.join(", ")));
                }
                let others = self.rig.joints.len() - h.bones.len();
                if others > 0 {
                    lines.push(format!(
                        "  {others} other joints (fingers, twists, props…) turn freely"
                    ));
                }
            }
            Err(why) => lines.push(format!(
                "not a humanoid ({why}): every joint turns freely, a site at each leaf"
            )),
        }
        lines
    }
}
