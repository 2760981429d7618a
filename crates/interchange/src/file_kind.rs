//! What kind of file a path holds, told by its first bytes (not its name), the one way every
//! front end tells: `marionette import`, `check`, `export` and the commands that read a figure,
//! the editor's Open, its dropped files and its start-up arguments.

use std::io::Read;
use std::path::Path;

/// Bytes read from the start of a file to tell its kind.
pub(crate) const HEAD_BYTES: u64 = 64 * 1024;

/// A kind of file Marionette reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A motion capture: BVH (it starts with `HIERARCHY`), or an FBX file with no skinned mesh
    /// (an animation: told apart from a character only by loading it, which
    /// [`crate::open::open`] does once).
    Capture,
    /// A rigged character: a glTF binary (`glTF` magic: `.glb`, `.vrm`), glTF JSON with an
    /// `asset`, or an FBX file (binary or ASCII; by its start alone, an FBX animation is told
    /// a character too: [`crate::open::open`] tells them apart).
    Character,
    /// A Document file (RON, `Document(...)`).
    Document,
    /// A skeleton file (RON, `Skeleton(...)`).
    Skeleton,
    /// A pose file (RON, `Pose(...)`).
    Pose,
    /// An IK problem file (RON, `Problem(...)`).
    Problem,
    /// Anything else: RON without a name at its top (a skeleton or a pose that omits it, told
    /// apart only by reading it), or a file Marionette does not read.
    Other,
}

impl FileKind {
    /// The kind of the file at `path`, from its first bytes.
    pub fn of(path: &Path) -> std::io::Result<FileKind> {
        let file = std::fs::File::open(path)?;
        if file.metadata()?.is_dir() {
            return Err(std::io::Error::other("is a directory, not a file"));
        }
        let mut head = Vec::new();
        file.take(HEAD_BYTES).read_to_end(&mut head)?;
        Ok(FileKind::of_head(&head))
    }

    /// The kind of a file that starts with `head`.
    pub fn of_head(head: &[u8]) -> FileKind {
        if head.starts_with(b"glTF") || crate::fbx::looks_like_fbx(head) {
            return FileKind::Character;
        }
        let text = String::from_utf8_lossy(head);
        let text = text.trim_start_matches('\u{feff}').trim_start();
        if text.starts_with('{') {
            return if text.contains("\"asset\"") {
                FileKind::Character
            } else {
                FileKind::Other
            };
        }
        if text
            .get(..9)
            .is_some_and(|w| w.eq_ignore_ascii_case("HIERARCHY"))
        {
            return FileKind::Capture;
        }
        match marionette_skeleton::ron_io::top_level_name(text) {
            Some("Document") => FileKind::Document,
            Some("Skeleton") => FileKind::Skeleton,
            Some("Pose") => FileKind::Pose,
            Some("Problem") => FileKind::Problem,
            _ => FileKind::Other,
        }
    }

    /// What a user calls it.
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Capture => "a motion capture (BVH, or an FBX animation)",
            FileKind::Character => "a rigged character (glTF, VRM or FBX)",
            FileKind::Document => "a document",
            FileKind::Skeleton => "a skeleton",
            FileKind::Pose => "a pose",
            FileKind::Problem => "an IK problem",
            FileKind::Other => "a file of no kind Marionette knows by its start",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_told_by_content_not_name() {
        let cases: [(&[u8], FileKind); 13] = [
            (b"glTF\x02\0\0\0", FileKind::Character),
            (b"Kaydara FBX Binary  \0\x1a\0", FileKind::Character),
            (b"; FBX 7.4.0 project file\n", FileKind::Character),
            (
                b"  {\"asset\": {\"version\": \"2.0\"}}",
                FileKind::Character,
            ),
            (b"{\"frames\": []}", FileKind::Other),
            (b"HIERARCHY\nROOT Hips", FileKind::Capture),
            (b"\xef\xbb\xbfhierarchy\r\nROOT Hips", FileKind::Capture),
            (b"// a comment\nDocument(version: 1)", FileKind::Document),
            (
                b"#![enable(implicit_some)]\nSkeleton(version: 1)",
                FileKind::Skeleton,
            ),
            (b"Pose(root: (0, 0, 0))", FileKind::Pose),
            (b"Problem(version: 1)", FileKind::Problem),
            (b"(version: 1, name: \"x\")", FileKind::Other),
            (b"", FileKind::Other),
        ];
        for (head, kind) in cases {
            assert_eq!(
                FileKind::of_head(head),
                kind,
                "{}",
                String::from_utf8_lossy(head)
            );
        }
    }

    #[test]
    fn shipped_files_are_told_by_their_start() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let kind = |p: &str| FileKind::of(&repo.join(p)).expect("reads");
        assert_eq!(kind("skeletons/humanoid.ron"), FileKind::Skeleton);
        assert_eq!(
            kind("crates/fuzz/seeds/document-crouch.marionette.ron"),
            FileKind::Document
        );
        assert_eq!(
            kind("crates/interchange/tests/data/characters/RiggedSimple.gltf"),
            FileKind::Character
        );
        assert_eq!(
            kind("crates/interchange/tests/data/characters/authored/vroid_tpose.vrm"),
            FileKind::Character
        );
        assert!(FileKind::of(&repo.join("skeletons")).is_err());
    }

    /// An FBX file opened is a character when it has a skinned mesh, an animation (a capture)
    /// when it has none.
    #[test]
    fn an_fbx_file_is_told_by_what_it_holds() {
        let authored =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/characters/authored");
        for (file, kind) in [
            ("mixamo_apose.fbx", FileKind::Character),
            ("mixamo_apose_ascii.fbx", FileKind::Character),
            ("mixamo_apose_animation.fbx", FileKind::Capture),
        ] {
            let opened = crate::open::open(&authored.join(file), Default::default());
            assert_eq!(opened.map(|o| o.kind()).ok(), Some(kind), "{file}");
        }
    }
}
