//! A crate's import graph, read from its source text: which module uses which.
//!
//! Every path a module writes from `crate::`, `super::` or `self::`, and every `use` item
//! (a `{…}` group expanded, `as` renames kept, uniform paths through a child module), is
//! followed to the module that *defines* the name it ends in: a name that a module only
//! re-exports (`pub use`), imports (`use`) or takes in by a glob (`use x::*`) is followed on to
//! where it is declared, so `crate::Document` counts as a use of `document`, not of the root.
//! A folder's `mod.rs` (or the crate root) re-exporting what its own children declare is the
//! folder's face, not a use of them, unless its own code names what it re-exports; any other
//! re-export is a use.
//! Cycles are looked for among the files (every module a node) and, in every folder, among
//! the folder's children (a subfolder is one node holding every module below it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
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
pub fn code(path: &Path) -> String {
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

fn segments_of(module: &str) -> Vec<String> {
    if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier-and-`::` path starting at `at` (`a::b::c`), as segments, and where it ends.
fn read_path(text: &str, at: usize) -> (Vec<String>, usize) {
    let bytes = text.as_bytes();
    let mut segments = Vec::new();
    let mut i = at;
    loop {
        let start = i;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
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

/// One leaf of a `use` tree: the path it names and the name it binds (`None` for a glob).
#[derive(Debug, Clone, PartialEq)]
struct UseLeaf {
    path: Vec<String>,
    binds: Option<String>,
}

/// The leaves of a `use` tree written as `tree` (`a::{b, c::d as e, f::*}`), each path
/// prefixed by `prefix`.
fn use_leaves(tree: &str, prefix: &[String], out: &mut Vec<UseLeaf>) {
    let tree = tree.trim().trim_start_matches("::");
    if tree.is_empty() {
        return;
    }
    if let Some(inner) = tree.strip_prefix('{') {
        let inner = inner.trim_end().strip_suffix('}').unwrap_or(inner);
        for member in split_top(inner) {
            use_leaves(member, prefix, out);
        }
        return;
    }
    let (segments, end) = read_path(tree, 0);
    let mut path = prefix.to_vec();
    let rest = tree[end..].trim_start();
    if let Some(group) = rest.strip_prefix("::") {
        let group = group.trim_start();
        path.extend(segments);
        if group == "*" {
            out.push(UseLeaf { path, binds: None });
        } else {
            use_leaves(group, &path, out);
        }
        return;
    }
    let last = segments.last().cloned().unwrap_or_default();
    let is_self = segments.len() == 1 && last == "self";
    if !is_self {
        path.extend(segments);
    }
    let binds = match rest.strip_prefix("as") {
        Some(alias) => alias.trim().to_owned(),
        None if is_self => prefix.last().cloned().unwrap_or_default(),
        None => last,
    };
    out.push(UseLeaf {
        path,
        binds: Some(binds),
    });
}

/// One `use` item: where its tree's text starts and ends, and whether it is `pub`.
struct UseItem {
    start: usize,
    end: usize,
    public: bool,
}

/// Every `use` item in `text`.
fn use_items(text: &str) -> Vec<UseItem> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("use ") {
        let start = from + at;
        from = start + 4;
        let before_ok = start == 0 || !is_ident_byte(bytes[start - 1]);
        // Only at the start of an item: first on its line, after `pub`/`pub(…)`, or `;{}`.
        let head = text[..start].trim_end();
        let public = head.ends_with("pub") || head.ends_with(')');
        let head_ok = head.is_empty()
            || head.ends_with([';', '{', '}'])
            || public
            || text[..start]
                .rsplit('\n')
                .next()
                .is_some_and(|l| l.trim().is_empty());
        if !before_ok || !head_ok {
            continue;
        }
        if let Some(end) = text[from..].find(';') {
            out.push(UseItem {
                start: from,
                end: from + end,
                public,
            });
            from += end;
        }
    }
    out
}

/// Whether `name` appears as a word in `text`.
fn mentions(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(name).any(|(at, _)| {
        let end = at + name.len();
        (at == 0 || !is_ident_byte(bytes[at - 1]))
            && (end >= bytes.len() || !is_ident_byte(bytes[end]))
    })
}

/// What one crate's modules declare, import and name.
pub struct Crate {
    modules: BTreeSet<String>,
    /// Per module: the names its `use` items bind, to the absolute path each names.
    imports: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Per module: the modules its `use …::*` items take every name from.
    globs: BTreeMap<String, Vec<Vec<String>>>,
    /// Per module: the names of the items it declares.
    items: BTreeMap<String, BTreeSet<String>>,
    /// Per module: every absolute path it names.
    named: BTreeMap<String, Vec<Vec<String>>>,
    /// Per module: the names its `use` items bring in from other crates.
    external: BTreeMap<String, BTreeSet<String>>,
    /// Per module: the modules it uses (itself left out), each with the paths that use it.
    uses: BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
}

/// What [`Crate::declaring`] answers for a name another crate declares.
const ELSEWHERE: &str = "::another crate";

/// The names of the items `text` declares (`struct X`, `fn x`, `mod x`, `macro_rules! x`, …).
fn declared_items(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let keywords = [
        "struct ",
        "enum ",
        "fn ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "union ",
        "macro_rules! ",
    ];
    let bytes = text.as_bytes();
    for keyword in keywords {
        let mut from = 0;
        while let Some(at) = text[from..].find(keyword) {
            let start = from + at;
            from = start + keyword.len();
            if start > 0 && is_ident_byte(bytes[start - 1]) {
                continue;
            }
            let (name, _) = read_path(text, from);
            if let Some(first) = name.first() {
                out.insert(first.clone());
            }
        }
    }
    out
}

impl Crate {
    /// Reads the crate whose sources are in `src` (a binary's `main.rs` beside a `lib.rs` is
    /// a crate of its own and left out).
    pub fn read(src: &Path) -> Crate {
        let has_lib = src.join("lib.rs").exists();
        let files: Vec<PathBuf> = rust_files(src)
            .into_iter()
            .filter(|f| !(has_lib && f.strip_prefix(src).is_ok_and(|r| r == Path::new("main.rs"))))
            .collect();
        let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
        let mut krate = Crate {
            modules,
            imports: BTreeMap::new(),
            globs: BTreeMap::new(),
            items: BTreeMap::new(),
            named: BTreeMap::new(),
            external: BTreeMap::new(),
            uses: BTreeMap::new(),
        };
        for file in &files {
            let me = module_of(src, file);
            let text = code(file);
            krate.items.insert(me.clone(), declared_items(&text));
            let items = use_items(&text);
            // The module's code outside its `use` items: where a re-exported name is used.
            let mut body = String::new();
            let mut at = 0;
            for item in &items {
                body.push_str(&text[at..item.start]);
                at = item.end;
            }
            body.push_str(&text[at..]);
            let mut named = krate.crate_paths(&me, &body);
            named.extend(krate.child_paths(&me, &body));
            for item in &items {
                let mut leaves = Vec::new();
                use_leaves(&text[item.start..item.end], &[], &mut leaves);
                for leaf in leaves {
                    let Some(path) = krate.absolute(&me, &leaf.path) else {
                        // Another crate's: a path through this name leaves the crate.
                        if let Some(name) = leaf.binds {
                            krate.external.entry(me.clone()).or_default().insert(name);
                        }
                        continue;
                    };
                    // A module re-exporting what its own children declare is their folder's
                    // face, not a user of them, unless its own code names what it re-exports.
                    let face = item.public && krate.below(&me, &path);
                    let used = match &leaf.binds {
                        Some(name) => !face || mentions(&body, name),
                        None => !face,
                    };
                    if used {
                        named.push(path.clone());
                    }
                    match leaf.binds {
                        Some(name) => {
                            krate
                                .imports
                                .entry(me.clone())
                                .or_default()
                                .insert(name, path);
                        }
                        None => krate.globs.entry(me.clone()).or_default().push(path),
                    }
                }
            }
            krate.named.insert(me, named);
        }
        krate.uses = krate.resolve_uses();
        krate
    }

    /// Whether `path` (from the root) lands in a module below `me`.
    fn below(&self, me: &str, path: &[String]) -> bool {
        let (landing, _) = self.landing(path);
        landing != me && (me.is_empty() || landing.starts_with(&format!("{me}::")))
    }

    /// `path` as written in module `me`, from the crate root; `None` when it starts in another
    /// crate.
    fn absolute(&self, me: &str, path: &[String]) -> Option<Vec<String>> {
        let mine = segments_of(me);
        let first = path.first()?;
        match first.as_str() {
            "crate" => Some(path[1..].to_vec()),
            "self" => Some([mine, path[1..].to_vec()].concat()),
            "super" => {
                let supers = path.iter().take_while(|s| *s == "super").count();
                let base = mine[..mine.len().saturating_sub(supers)].to_vec();
                Some([base, path[supers..].to_vec()].concat())
            }
            _ => {
                // A uniform path: a child module of this one.
                let child = [mine.clone(), vec![first.clone()]].concat().join("::");
                self.modules
                    .contains(&child)
                    .then(|| [mine, path.to_vec()].concat())
            }
        }
    }

    /// Every path written in `text` (module `me`) from `crate::`, `super::` or `self::`.
    fn crate_paths(&self, me: &str, text: &str) -> Vec<Vec<String>> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if !text.is_char_boundary(i) {
                i += 1;
                continue;
            }
            let starts_word = i == 0 || !(is_ident_byte(bytes[i - 1]) || bytes[i - 1] == b':');
            let rest = &text[i..];
            let rooted = ["crate::", "super::", "self::"]
                .iter()
                .any(|r| rest.starts_with(r));
            // A visibility's path (`pub(in crate::scene)`) names where an item is seen, not a use.
            let visibility = text[..i].trim_end().ends_with("(in");
            if !(starts_word && rooted) || visibility {
                i += 1;
                continue;
            }
            let (segments, end) = read_path(text, i);
            let Some(prefix) = self.absolute(me, &segments) else {
                i = end;
                continue;
            };
            if text[end..].starts_with("::{") {
                let mut leaves = Vec::new();
                let close = matching_brace(text, end + 2);
                use_leaves(&text[end + 2..close], &prefix, &mut leaves);
                out.extend(leaves.into_iter().map(|l| l.path));
                i = close;
            } else {
                out.push(prefix);
                i = end;
            }
        }
        out
    }

    /// Every path written in `text` (module `me`) from one of `me`'s child modules
    /// (`child::f()`, a uniform path).
    fn child_paths(&self, me: &str, text: &str) -> Vec<Vec<String>> {
        let mine = segments_of(me);
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        for module in &self.modules {
            if parent(module) != Some(me) || module.is_empty() {
                continue;
            }
            let child = module.rsplit("::").next().unwrap_or(module);
            let pattern = format!("{child}::");
            for (at, _) in text.match_indices(&pattern) {
                let before = at.checked_sub(1).map(|b| bytes[b]);
                if before.is_some_and(|b| is_ident_byte(b) || b == b':') {
                    continue;
                }
                let (segments, _) = read_path(text, at);
                out.push([mine.clone(), segments].concat());
            }
        }
        out
    }

    /// The module that declares what `path` (from the root) names: a re-exported, imported or
    /// glob-imported name followed to its declaration. `None` when no declaration is found.
    fn declaring(&self, path: &[String], depth: usize) -> Option<String> {
        let (module, rest) = self.landing(path);
        let Some(name) = rest.first() else {
            return Some(module);
        };
        if depth > 32 {
            return None;
        }
        if self.items.get(&module).is_some_and(|i| i.contains(name)) {
            return Some(module);
        }
        if self.external.get(&module).is_some_and(|e| e.contains(name)) {
            return Some(ELSEWHERE.to_owned());
        }
        if let Some(target) = self.imports.get(&module).and_then(|i| i.get(name)) {
            let full = [target.clone(), rest[1..].to_vec()].concat();
            return self.declaring(&full, depth + 1);
        }
        self.globs
            .get(&module)
            .into_iter()
            .flatten()
            .find_map(|glob| {
                let full = [glob.clone(), rest.to_vec()].concat();
                self.declaring(&full, depth + 1)
            })
    }

    /// The longest prefix of `path` that is a module, and the segments after it.
    fn landing<'p>(&self, path: &'p [String]) -> (String, &'p [String]) {
        for n in (0..=path.len()).rev() {
            let candidate = path[..n].join("::");
            if self.modules.contains(&candidate) {
                return (candidate, &path[n..]);
            }
        }
        (String::new(), path)
    }

    /// Which modules each module uses (itself left out).
    pub fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        self.uses
            .iter()
            .map(|(from, targets)| (from.clone(), targets.keys().cloned().collect()))
            .collect()
    }

    /// Which modules each module uses, each with the paths that use it.
    pub fn reasons(&self) -> &BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
        &self.uses
    }

    /// Every path a module names followed to the module declaring it.
    fn resolve_uses(&self) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
        let mut uses: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
        for (me, paths) in &self.named {
            for path in paths {
                let target = self
                    .declaring(path, 0)
                    .unwrap_or_else(|| self.landing(path).0);
                if &target != me && target != ELSEWHERE {
                    uses.entry(me.clone())
                        .or_default()
                        .entry(target)
                        .or_default()
                        .insert(path.join("::"));
                }
            }
        }
        uses
    }

    /// The import cycles among the crate's files, each a sorted set of modules.
    pub fn file_cycles(&self) -> Vec<Vec<String>> {
        strongly_connected(&self.modules, &self.edges())
    }

    /// The import cycles among the children of each folder (a subfolder one node) that are
    /// not just a cycle among files seen from above: each as the folder and the sorted set of
    /// its children in the cycle.
    pub fn folder_cycles(&self) -> Vec<(String, Vec<String>)> {
        let edges = self.edges();
        let file_cycles = strongly_connected(&self.modules, &edges);
        let folders: BTreeSet<String> = self
            .modules
            .iter()
            .filter(|m| self.modules.iter().any(|c| parent(c) == Some(m.as_str())))
            .cloned()
            .collect();
        let mut out = Vec::new();
        for folder in &folders {
            let node = |m: &str| child_holding(folder, m);
            let nodes: BTreeSet<String> = self.modules.iter().filter_map(|m| node(m)).collect();
            let mut folded: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for (from, targets) in &edges {
                let Some(a) = node(from) else { continue };
                for b in targets.iter().filter_map(|t| node(t)) {
                    if a != b {
                        folded.entry(a.clone()).or_default().insert(b);
                    }
                }
            }
            let seen_as_files: Vec<BTreeSet<String>> = file_cycles
                .iter()
                .map(|c| c.iter().filter_map(|m| node(m)).collect())
                .collect();
            for cycle in strongly_connected(&nodes, &folded) {
                let set: BTreeSet<String> = cycle.iter().cloned().collect();
                if !seen_as_files.contains(&set) {
                    out.push((folder.clone(), cycle));
                }
            }
        }
        out
    }
}

/// The parent of a module (`None` for the root).
fn parent(module: &str) -> Option<&str> {
    if module.is_empty() {
        None
    } else {
        Some(module.rsplit_once("::").map_or("", |(p, _)| p))
    }
}

/// The child of `folder` that holds `module` (the folder's own file is itself a node), or
/// `None` when `module` is outside the folder.
fn child_holding(folder: &str, module: &str) -> Option<String> {
    if module == folder {
        return Some(folder.to_owned());
    }
    let rest = if folder.is_empty() {
        module
    } else {
        module.strip_prefix(folder)?.strip_prefix("::")?
    };
    let first = rest.split("::").next()?;
    Some(if folder.is_empty() {
        first.to_owned()
    } else {
        format!("{folder}::{first}")
    })
}

/// Where the `}` closing the `{` at `open` is (or the text's end).
fn matching_brace(text: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    text.len()
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
