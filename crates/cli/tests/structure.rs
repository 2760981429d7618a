//! The workspace's shape, checked over its source text (docs/architecture.md says why each
//! rule holds):
//!
//! - no import cycle in any crate, among its files or among the children of any folder (a
//!   subfolder one node): a module uses another when a path it writes (`crate::`, `super::`,
//!   `self::`, a child module's name, a `use` item with its `{…}` groups) names something the
//!   other declares; a name only re-exported or imported on the way (`crate::Document`, `pub
//!   use x::*`) is followed to where it is declared ([`imports`]);
//! - every system the editor adds is in an `EditorSet` (the frame's one spine);
//! - the editor writes the open document (`ResMut<OpenDocument>`) only where edits are applied,
//!   files replace or save it, and the drag in progress takes its step;
//! - one door for files: the command line, the editor, the editing crate and the fuzzer open
//!   files through `open` (or read a capture through `read_capture`) and import characters
//!   through `import_of`, never the parser or the importer beneath them nor `FileKind::of`, and a
//!   character file is opened on its own only where a document reads its skin.

#[path = "structure/imports.rs"]
mod imports;

use imports::{Crate, code, rust_files};
use std::path::{Path, PathBuf};

/// The checkout whose source is checked: this one, or the one `MARIONETTE_STRUCTURE_ROOT`
/// names (to run the checks on another commit's tree).
fn repo() -> PathBuf {
    match std::env::var_os("MARIONETTE_STRUCTURE_ROOT") {
        Some(root) => PathBuf::from(root),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."),
    }
}

fn crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(repo().join("crates"))
        .expect("crates/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// `(root)` for the crate root's module, else the module's path.
fn shown(module: &str) -> &str {
    if module.is_empty() { "(root)" } else { module }
}

/// Every import cycle in the crate at `src`, among its files and among each folder's children.
fn cycles_in(src: &Path) -> Vec<String> {
    let krate = Crate::read(src);
    let mut found: Vec<String> = krate
        .file_cycles()
        .iter()
        .map(|cycle| {
            let names: Vec<&str> = cycle.iter().map(|m| shown(m)).collect();
            format!("files {}", names.join(" ⇄ "))
        })
        .collect();
    for (folder, cycle) in krate.folder_cycles() {
        let names: Vec<&str> = cycle.iter().map(|m| shown(m)).collect();
        found.push(format!(
            "in folder {}: {}",
            shown(&folder),
            names.join(" ⇄ ")
        ));
    }
    found
}

/// Why the files of the crate at `src` that are in cycles use each other: per use between two
/// of them, the paths that make it.
fn uses_in_cycles(src: &Path) -> Vec<String> {
    let krate = Crate::read(src);
    let in_cycles: std::collections::BTreeSet<String> =
        krate.file_cycles().into_iter().flatten().collect();
    let mut out = Vec::new();
    for (from, targets) in krate.reasons() {
        for (to, why) in targets {
            if in_cycles.contains(from) && in_cycles.contains(to) {
                let why: Vec<&str> = why.iter().map(String::as_str).collect();
                out.push(format!(
                    "  {} uses {}: {}",
                    shown(from),
                    shown(to),
                    why.join(", ")
                ));
            }
        }
    }
    out
}

#[test]
fn no_crate_has_an_import_cycle_among_its_files_or_folders() {
    let mut found = Vec::new();
    for dir in crates() {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let cycles = cycles_in(&dir.join("src"));
        for cycle in &cycles {
            found.push(format!("{name}: {cycle}"));
        }
        if !cycles.is_empty() {
            found.extend(uses_in_cycles(&dir.join("src")));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

/// A crate written into a scratch folder from `(path, text)` pairs; its cycles.
fn cycles_of(files: &[(&str, &str)]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let src = dir.path().join("src");
    for (path, text) in files {
        let path = src.join(path);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
        std::fs::write(&path, text).expect("written");
    }
    cycles_in(&src)
}

#[test]
fn the_cycle_finder_finds_a_cycle_through_paths_and_groups() {
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a/mod.rs", "mod c;\nuse crate::b::X;\n"),
        ("a/c.rs", "use super::super::b::{Y, Z};\n"),
        ("b.rs", "pub struct X; use crate::{a::c::W};\n"),
    ]);
    assert!(found.contains(&"files a::c ⇄ b".to_owned()), "{found:?}");
}

#[test]
fn the_cycle_finder_follows_re_exports_to_where_a_name_is_declared() {
    // `crate::Doc` is the root's re-export of `doc::Doc`; `drag` re-exported by the root too.
    let found = cycles_of(&[
        (
            "lib.rs",
            "mod doc;\nmod drag;\npub use doc::Doc;\npub use drag::*;\n",
        ),
        ("doc.rs", "use crate::{Grip as G};\npub struct Doc(G);\n"),
        ("drag.rs", "pub struct Grip;\npub fn f(_: &crate::Doc) {}\n"),
    ]);
    assert_eq!(found, vec!["files doc ⇄ drag".to_owned()]);
}

#[test]
fn the_cycle_finder_follows_a_folder_s_re_export_and_a_private_import() {
    let found = cycles_of(&[
        ("lib.rs", "mod stage;\nmod edit;\n"),
        ("stage/mod.rs", "mod apply;\npub use apply::Applied;\n"),
        (
            "stage/apply.rs",
            "use crate::edit::Edit;\npub struct Applied;\n",
        ),
        ("edit.rs", "use crate::stage::Applied;\npub enum Edit {}\n"),
    ]);
    assert_eq!(found, vec!["files edit ⇄ stage::apply".to_owned()]);
}

#[test]
fn a_re_export_of_what_another_module_declares_is_a_use() {
    // `a` re-exports `b`'s `B` (not a child of its own) and `b` uses `a`: a cycle, although no
    // code of `a` names `B`.
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "pub use crate::b::B;\npub struct A;\n"),
        ("b.rs", "pub struct B(crate::a::A);\n"),
    ]);
    assert_eq!(found, vec!["files a ⇄ b".to_owned()]);
}

#[test]
fn the_cycle_finder_finds_a_cycle_between_folders() {
    // No two files use each other, but the folders `solvers` and `analytic` do.
    let found = cycles_of(&[
        ("lib.rs", "mod analytic;\nmod solvers;\n"),
        ("analytic/mod.rs", "mod limb;\n"),
        (
            "analytic/limb.rs",
            "use crate::solvers::dls::step;\npub fn limb() {}\n",
        ),
        ("solvers/mod.rs", "mod dls;\nmod ccd;\n"),
        ("solvers/dls.rs", "pub fn step() {}\n"),
        (
            "solvers/ccd.rs",
            "pub fn ccd() { crate::analytic::limb::limb() }\n",
        ),
    ]);
    assert_eq!(
        found,
        vec!["in folder (root): analytic ⇄ solvers".to_owned()]
    );
}

#[test]
fn the_cycle_finder_passes_a_crate_without_cycles() {
    // `pub(in crate::a)` names where an item is seen, not a use of `a`.
    let found = cycles_of(&[
        ("lib.rs", "mod a;\nmod b;\npub use a::A;\npub use b::*;\n"),
        (
            "a.rs",
            "mod c;\nuse crate::B;\npub struct A(B);\npub fn f() { c::c() }\n",
        ),
        ("a/c.rs", "pub(in crate::a) fn c() {}\n"),
        ("b.rs", "pub struct B;\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

/// Every `.add_systems(…)` call in `text` (a method call on an app), whole.
fn add_systems_calls(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(".add_systems(") {
        let start = from + at;
        let open = start + ".add_systems".len();
        let mut depth = 0;
        let mut end = open;
        for (i, c) in text[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(&text[start..end]);
        from = end.max(start + 1);
    }
    out
}

#[test]
fn every_editor_system_is_in_an_editor_set() {
    let src = repo().join("crates/editor/src");
    let mut outside = Vec::new();
    let mut calls = 0;
    for file in rust_files(&src) {
        let text = code(&file);
        for call in add_systems_calls(&text) {
            calls += 1;
            if !call.contains("EditorSet::") {
                outside.push(format!("{}: {call}", file.display()));
            }
        }
    }
    assert!(calls > 20, "only {calls} add_systems calls found");
    assert!(
        outside.is_empty(),
        "systems in no EditorSet:\n{}",
        outside.join("\n\n")
    );
}

#[test]
fn the_editor_writes_the_document_only_where_edits_files_and_the_drag_do() {
    let src = repo().join("crates/editor/src");
    let allowed = ["edit.rs", "files/work.rs", "drag/mod.rs"];
    let mut writers = Vec::new();
    for file in rust_files(&src) {
        let text = code(&file);
        let writes = text.contains("ResMut<OpenDocument>")
            || text.contains("ResMut<'w, OpenDocument>")
            || text.contains("Mut<OpenDocument>")
            || text.contains("resource_mut::<OpenDocument>");
        let rel = file
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .into_owned();
        if writes && !allowed.contains(&rel.as_str()) {
            writers.push(rel);
        }
    }
    assert!(writers.is_empty(), "the document written in {writers:?}");
}

#[test]
fn front_ends_read_captures_and_characters_through_one_reader_each() {
    let mut found = Vec::new();
    for front in ["cli", "editor", "editing", "fuzz"] {
        for file in rust_files(&repo().join("crates").join(front).join("src")) {
            // The fuzzer reads back the BVH files our exports write (not a capture's input).
            if file.ends_with("fuzz/src/outputs.rs") {
                continue;
            }
            let text = code(&file);
            // A document reads its skin's character once, where it is made: the editor's scene
            // and exports use that read.
            if text.contains("Character::open(") && !file.ends_with("editing/src/document/mod.rs") {
                found.push(format!("{}: Character::open", file.display()));
            }
            // A file's kind is told once, by the reader that opens it.
            if text.contains("FileKind::of(") {
                found.push(format!("{}: FileKind::of", file.display()));
            }
            for beneath in [
                "bvh::parse::parse",
                "bvh::import::import",
                "parse::parse(",
                "import::import",
                "Character::from_file",
                ".import(&",
            ] {
                if text.contains(beneath) {
                    found.push(format!("{}: {beneath}", file.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "read around open / read_capture / import_of:\n{}",
        found.join("\n")
    );
}
