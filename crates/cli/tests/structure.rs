//! The workspace's shape, checked over its source text (docs/architecture.md says why each
//! rule holds):
//!
//! - no import cycle among the modules of any crate: an edge from module A to module B for
//!   every `crate::` or `super::` path in A's file (outside its tests) that names B or
//!   something in B, and no strongly connected set of two or more modules;
//! - every system the editor adds is in an `EditorSet` (the frame's one spine);
//! - the editor writes the open document (`ResMut<OpenDocument>`) only where edits are applied,
//!   files replace or save it, and the drag in progress takes its step;
//! - one BVH capture reader and one character import: the command line, the editor, the editing
//!   crate and the fuzzer read captures through `read_capture` and import characters through
//!   `import_character`, never the parser or the importer beneath them, and a character file is
//!   opened only where a document reads its skin.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A file's text without its test module (everything from its first `#[cfg(test)]` on) and
/// without comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file");
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) if !l[..at].contains('"') => &l[..at],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module path (from the crate root, `""` for the root) of a file under `src`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "lib.rs" | "main.rs" | "mod.rs" => {}
        other => parts.push(other.trim_end_matches(".rs").to_owned()),
    }
    parts.join("::")
}

/// Every path written after `crate::` or `super::` in `text` (a `{…}` group expanded into its
/// members), as segments, with where it starts (`crate` or the number of `super`s).
fn paths(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let starts_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        let root = if !starts_word {
            None
        } else if rest.starts_with("crate::") {
            Some(usize::MAX)
        } else if rest.starts_with("super::") {
            Some(0)
        } else {
            None
        };
        let Some(root) = root else {
            i += 1;
            continue;
        };
        let (segments, end) = read_path(text, i);
        let mut supers = 0;
        let mut segs = segments.into_iter().peekable();
        if root == usize::MAX {
            segs.next(); // crate
        } else {
            while segs.peek().is_some_and(|s| s == "super") {
                supers += 1;
                segs.next();
            }
        }
        let prefix: Vec<String> = segs.collect();
        let base = if root == usize::MAX {
            usize::MAX
        } else {
            supers
        };
        // A group: `prefix::{a::b, c}` expands to `prefix::a::b` and `prefix::c`.
        if text[end..].starts_with("::{") {
            let group_start = end + 3;
            let mut depth = 1;
            let mut j = group_start;
            while j < bytes.len() && depth > 0 {
                match bytes[j] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            let inner = &text[group_start..j.saturating_sub(1)];
            for member in split_top(inner) {
                let member = member.trim();
                if member.is_empty() || member == "self" {
                    out.push((base, prefix.clone()));
                    continue;
                }
                for (_, sub) in paths(&format!("crate::{member}")) {
                    let mut full = prefix.clone();
                    full.extend(sub);
                    out.push((base, full));
                }
            }
            i = j;
        } else {
            out.push((base, prefix));
            i = end;
        }
    }
    out
}

/// The segments of the path starting at `at` (`a::b::c`), and where it ends.
fn read_path(text: &str, at: usize) -> (Vec<String>, usize) {
    let bytes = text.as_bytes();
    let mut segments = Vec::new();
    let mut i = at;
    loop {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if i == start {
            break;
        }
        segments.push(text[start..i].to_owned());
        if text[i..].starts_with("::")
            && text[i + 2..].starts_with(|c: char| c.is_alphabetic() || c == '_')
        {
            i += 2;
        } else {
            break;
        }
    }
    (segments, i)
}

/// `text` split at the commas outside braces.
fn split_top(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// The module an absolute path (segments from the crate root) lands in: the longest prefix
/// that is a module.
fn landing(modules: &BTreeSet<String>, segments: &[String]) -> String {
    for n in (0..=segments.len()).rev() {
        let candidate = segments[..n].join("::");
        if modules.contains(&candidate) {
            return candidate;
        }
    }
    String::new()
}

/// The import cycles of the crate whose sources are in `src`: each a set of modules.
fn cycles(src: &Path) -> Vec<Vec<String>> {
    let files = rust_files(src);
    let has_lib = src.join("lib.rs").exists();
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| !(has_lib && f.strip_prefix(src).is_ok_and(|r| r == Path::new("main.rs"))))
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let me = module_of(src, file);
        let mine: Vec<String> = if me.is_empty() {
            Vec::new()
        } else {
            me.split("::").map(str::to_owned).collect()
        };
        // A module's `super` is its parent (a mod.rs file's too: its module is the folder).
        for (base, segments) in paths(&code(file)) {
            let mut absolute: Vec<String> = if base == usize::MAX {
                Vec::new()
            } else {
                mine[..mine.len().saturating_sub(base)].to_vec()
            };
            absolute.extend(segments);
            let target = landing(&modules, &absolute);
            if target != me {
                edges.entry(me.clone()).or_default().insert(target);
            }
        }
    }
    strongly_connected(&modules, &edges)
}

/// Tarjan's strongly connected components of two or more nodes.
fn strongly_connected(
    nodes: &BTreeSet<String>,
    edges: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on_stack: BTreeSet<String>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit(s: &mut State, v: &str) {
        s.index.insert(v.to_owned(), s.next);
        s.low.insert(v.to_owned(), s.next);
        s.next += 1;
        s.stack.push(v.to_owned());
        s.on_stack.insert(v.to_owned());
        let targets: Vec<String> = s
            .edges
            .get(v)
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        for w in targets {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let low = s.low[v].min(s.low[&w]);
                s.low.insert(v.to_owned(), low);
            } else if s.on_stack.contains(&w) {
                let low = s.low[v].min(s.index[&w]);
                s.low.insert(v.to_owned(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for n in nodes {
        if !state.index.contains_key(n) {
            visit(&mut state, n);
        }
    }
    state.out
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

#[test]
fn no_crate_has_an_import_cycle_among_its_modules() {
    let mut found = Vec::new();
    for dir in crates() {
        for cycle in cycles(&dir.join("src")) {
            found.push(format!(
                "{}: {}",
                dir.file_name().unwrap_or_default().to_string_lossy(),
                cycle
                    .iter()
                    .map(|m| if m.is_empty() { "(root)" } else { m })
                    .collect::<Vec<_>>()
                    .join(" ⇄ ")
            ));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let dir = std::env::temp_dir().join(format!("marionette-structure-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).expect("a folder");
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\n").expect("written");
    std::fs::write(src.join("a/mod.rs"), "mod c;\nuse crate::b::X;\n").expect("written");
    std::fs::write(src.join("a/c.rs"), "use super::super::b::{Y, Z};\n").expect("written");
    std::fs::write(src.join("b.rs"), "pub struct X; use crate::{a::c::W};\n").expect("written");
    let found = cycles(&src);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found, vec![vec!["a::c".to_owned(), "b".to_owned()]]);
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
    let allowed = ["edit.rs", "files/mod.rs", "drag/mod.rs"];
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
            if text.contains("Character::open(") && !file.ends_with("editing/src/document.rs") {
                found.push(format!("{}: Character::open", file.display()));
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
        "read around read_capture / import_character:\n{}",
        found.join("\n")
    );
}
