//! The examples of `docs/` are the program's: every RON example is loaded by the real loader
//! (`marionette check`, or the replay parser), every output shown is compared with what the
//! command prints, and no page, README or source file sends a reader outside the repository.
//!
//! In the pages, a block may be preceded by a comment that says what it is:
//! `<!-- file: NAME -->` writes the RON block as NAME (beside copies of `skeletons/` and of the
//! test characters, `characters/`), for later
//! commands to read; `<!-- file: NAME (invalid) -->` writes it without checking it;
//! `<!-- output of: marionette ARGS -->` runs the command there and compares its output (text:
//! exactly, standard output then standard error; JSON: the same keys, and the same values
//! except `micros`, numbers to 1e-9). `; first frame of FILE` after the arguments compares
//! FILE's JSON with its frames cut to the first; `; file FILE` compares the whole file.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One fenced block and the comment before it.
#[derive(Debug)]
struct Block {
    page: String,
    line: usize,
    lang: String,
    body: String,
    note: Option<String>,
}

fn blocks(page: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(page).expect("page");
    let name = page
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(lang) = lines[i].strip_prefix("```")
            && !lang.is_empty()
        {
            let start = i;
            let mut body = String::new();
            i += 1;
            while i < lines.len() && lines[i] != "```" {
                body += lines[i];
                body.push('\n');
                i += 1;
            }
            let note = (start > 0)
                .then(|| lines[start - 1].trim())
                .and_then(|l| l.strip_prefix("<!--"))
                .and_then(|l| l.strip_suffix("-->"))
                .map(|l| l.trim().to_owned());
            out.push(Block {
                page: name.clone(),
                line: start + 1,
                lang: lang.to_owned(),
                body,
                note,
            });
        }
        i += 1;
    }
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("dir") {
        let entry = entry.expect("entry");
        if entry.path().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        } else if entry.path().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()));
        }
    }
}

fn run(dir: &Path, args: &str) -> (String, String, Option<i32>) {
    let args: Vec<&str> = args.split_whitespace().collect();
    assert_eq!(args[0], "marionette", "only the marionette command is run");
    let o = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(&args[1..])
        .current_dir(dir)
        .output()
        .expect("runs");
    (
        String::from_utf8(o.stdout).expect("utf-8"),
        String::from_utf8(o.stderr).expect("utf-8"),
        o.status.code(),
    )
}

/// Whether `shown` (the page's JSON) says what `real` (the command's) does.
fn same_json(shown: &Value, real: &Value, path: &str, problems: &mut Vec<String>) {
    match (shown, real) {
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (Vec<&String>, Vec<&String>) = (a.keys().collect(), b.keys().collect());
            if ka != kb {
                problems.push(format!("{path}: keys {ka:?} but the command prints {kb:?}"));
                return;
            }
            for (k, v) in a {
                if k != "micros" {
                    same_json(v, &b[k], &format!("{path}.{k}"), problems);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                problems.push(format!(
                    "{path}: {} items, the command prints {}",
                    a.len(),
                    b.len()
                ));
                return;
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                same_json(x, y, &format!("{path}[{i}]"), problems);
            }
        }
        (Value::Number(a), Value::Number(b)) => {
            let (x, y) = (
                a.as_f64().unwrap_or(f64::NAN),
                b.as_f64().unwrap_or(f64::NAN),
            );
            if (x - y).abs() > 1e-9 * (1.0 + y.abs()) {
                problems.push(format!("{path}: {x} but the command prints {y}"));
            }
        }
        (a, b) if a == b => {}
        (a, b) => problems.push(format!("{path}: {a} but the command prints {b}")),
    }
}

#[test]
fn every_example_in_docs_loads_and_every_output_is_what_the_command_prints() {
    let dir = tempfile::tempdir().expect("tmp");
    copy_dir(&repo().join("skeletons"), &dir.path().join("skeletons"));
    copy_dir(
        &repo().join("crates/interchange/tests/data/characters"),
        &dir.path().join("characters"),
    );
    let mut pages: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 4, "{pages:?}");
    pages.push(repo().join("README.md"));
    let mut problems = Vec::new();
    let mut checked = 0;
    // MARIONETTE_BLESS_DOCS=1 writes what the commands print into the pages' text blocks
    // instead of failing (then read the diff: every change must be one the code meant).
    let bless = std::env::var_os("MARIONETTE_BLESS_DOCS").is_some();
    let mut blessed: Vec<(PathBuf, String, String)> = Vec::new();
    for page in &pages {
        for (n, b) in blocks(page).into_iter().enumerate() {
            let at = format!("{}:{}", b.page, b.line);
            let note = b.note.clone().unwrap_or_default();
            match b.lang.as_str() {
                "ron" => {
                    let file = note.strip_prefix("file: ").map_or_else(
                        || format!("example-{n}.ron"),
                        |f| f.trim_end_matches(" (invalid)").to_owned(),
                    );
                    std::fs::write(dir.path().join(&file), &b.body).expect("write");
                    checked += 1;
                    if note.ends_with("(invalid)") {
                        continue;
                    }
                    // A retarget map is checked by the retarget command that reads it (an
                    // output block below it).
                    if b.body.trim_start().starts_with("RetargetMap(") {
                        continue;
                    }
                    if b.body.trim_start().starts_with("Replay(") {
                        if let Err(e) = marionette_editing::Script::parse(&b.body, &file) {
                            problems.push(format!("{at}: the replay does not parse: {e}"));
                        }
                        continue;
                    }
                    let args = if b.body.trim_start().starts_with("Pose(") {
                        format!("marionette check --skeleton skeletons/stickman.ron {file}")
                    } else {
                        format!("marionette check {file}")
                    };
                    let (_, err, code) = run(dir.path(), &args);
                    if code != Some(0) {
                        problems.push(format!("{at}: `{args}` refuses the example: {err}"));
                    }
                }
                "json" | "text" => {
                    let Some(command) = note.strip_prefix("output of: ") else {
                        assert_eq!(
                            b.lang, "text",
                            "{at}: a JSON example must say what prints it"
                        );
                        continue;
                    };
                    checked += 1;
                    let (command, first_frame_of) = match command.split_once("; first frame of ") {
                        Some((c, f)) => (c, Some(f)),
                        None => (command, None),
                    };
                    let (command, whole_file) = match command.split_once("; file ") {
                        Some((c, f)) => (c, Some(f)),
                        None => (command, None),
                    };
                    let (mut out, err, _) = run(dir.path(), command);
                    if let Some(f) = whole_file {
                        out = std::fs::read_to_string(dir.path().join(f)).expect("written");
                    }
                    if b.lang == "text" {
                        let real = if whole_file.is_some() {
                            out
                        } else {
                            format!("{out}{err}")
                        };
                        if real.trim() != b.body.trim() && bless {
                            blessed.push((
                                page.clone(),
                                b.body.clone(),
                                format!("{}\n", real.trim()),
                            ));
                        } else if real.trim() != b.body.trim() {
                            problems.push(format!(
                                "{at}: `{command}` prints\n{real}\nbut the page shows\n{}",
                                b.body
                            ));
                        }
                        continue;
                    }
                    let real: Value = match first_frame_of {
                        Some(f) => {
                            let text =
                                std::fs::read_to_string(dir.path().join(f)).expect("written");
                            let mut v: Value = serde_json::from_str(&text).expect("json");
                            if let Some(frames) = v["frames"].as_array_mut() {
                                frames.truncate(1);
                            }
                            v
                        }
                        None => match serde_json::from_str(&out) {
                            Ok(v) => v,
                            Err(e) => {
                                problems.push(format!(
                                    "{at}: `{command}` printed no JSON ({e}): {err}"
                                ));
                                continue;
                            }
                        },
                    };
                    match serde_json::from_str::<Value>(&b.body) {
                        Ok(shown) => same_json(&shown, &real, &at, &mut problems),
                        Err(e) => problems.push(format!("{at}: the JSON does not parse: {e}")),
                    }
                }
                _ => {}
            }
        }
    }
    for (page, old, new) in &blessed {
        let text = std::fs::read_to_string(page).expect("page");
        let from = format!("```text\n{old}```");
        let to = format!("```text\n{new}```");
        assert!(text.contains(&from), "{}: the block moved", page.display());
        std::fs::write(page, text.replacen(&from, &to, 1)).expect("the page written");
        println!("blessed a block of {}", page.display());
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 15, "only {checked} examples checked");
}

#[test]
fn nothing_sends_a_reader_outside_the_repository() {
    let mut found = Vec::new();
    let mut stack = vec![
        repo().join("crates"),
        repo().join("docs"),
        repo().join("README.md"),
    ];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("dir") {
                stack.push(entry.expect("entry").path());
            }
            continue;
        }
        let keep = path
            .extension()
            .is_some_and(|e| ["rs", "md", "toml", "ron"].contains(&e.to_str().unwrap_or("")));
        if !keep {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            // Spelled in pieces, so that a grep for them finds nothing here either.
            for outside in [
                concat!("shared", "/"),
                concat!("FILE", "_FORMATS"),
                concat!("ARCHITECTURE", ".md"),
                concat!("papers", "/"),
                concat!("SKELETON", "_FORMAT"),
            ] {
                if line.contains(outside) {
                    found.push(format!("{}:{}: {line}", path.display(), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "references outside the repository:\n{}",
        found.join("\n")
    );
}

/// The commands `marionette --help` lists (help aside).
fn commands() -> Vec<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .arg("--help")
        .output()
        .expect("runs");
    let text = String::from_utf8(o.stdout).expect("utf-8");
    let listed: Vec<String> = text
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_owned)
        .collect();
    assert!(listed.len() >= 10, "`marionette --help` lists {listed:?}");
    listed
}

#[test]
fn the_help_readme_and_architecture_list_every_command() {
    let o = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .arg("--help")
        .output()
        .expect("runs");
    let help = String::from_utf8(o.stdout).expect("utf-8");
    assert!(!help.contains("(later)"), "{help}");
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README");
    let commands_page =
        std::fs::read_to_string(repo().join("docs/commands.md")).expect("docs/commands.md");
    let architecture =
        std::fs::read_to_string(repo().join("docs/architecture.md")).expect("architecture");
    // The README names them as `name`; the commands page shows each one run.
    let cli_line = architecture
        .lines()
        .skip_while(|l| !l.contains("the `marionette` command:"))
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    for command in commands() {
        assert!(
            readme.contains(&format!("`{command}`")),
            "the README does not name `{command}`"
        );
        assert!(
            commands_page.contains(&format!("\nmarionette {command} "))
                || commands_page.contains(&format!("\nmarionette {command}\n")),
            "docs/commands.md does not show `marionette {command}`"
        );
        assert!(
            cli_line
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == command),
            "docs/architecture.md's crate list does not name {command}: {cli_line}"
        );
    }
    // `export --help` names every format it writes.
    let o = Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(["export", "--help"])
        .output()
        .expect("runs");
    let export = String::from_utf8(o.stdout).expect("utf-8");
    for format in ["bvh", "glb", "json"] {
        assert!(
            export.contains(format),
            "export --help lacks {format}:\n{export}"
        );
    }
    assert!(help.contains("BVH, glTF (.glb) or JSON"), "{help}");
}

/// The README is a front page: what Marionette is, its two set-up commands, what it reads and
/// writes, and a link to every page of `docs/` (which hold everything else).
#[test]
fn the_readme_is_short_and_links_every_page_of_the_docs() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README");
    let lines = readme.lines().count();
    assert!(lines <= 150, "the README has {lines} lines (at most 150)");
    for command in ["scripts/run.sh", "scripts/test.sh"] {
        assert!(
            readme.contains(&format!("```sh\n{command}")),
            "the README does not show `{command}`"
        );
    }
    for entry in std::fs::read_dir(repo().join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            assert!(
                readme.contains(&format!("](docs/{name})")),
                "the README does not link docs/{name}"
            );
        }
    }
    // And every page it links is there.
    for link in readme.split("](").skip(1) {
        let target = link.split(')').next().unwrap_or_default();
        if !target.starts_with("http") {
            assert!(
                repo().join(target).exists(),
                "the README links {target}, which is not there"
            );
        }
    }
}

#[test]
fn every_command_s_help_shows_an_example() {
    for command in commands() {
        let o = Command::new(env!("CARGO_BIN_EXE_marionette"))
            .args([command.as_str(), "--help"])
            .output()
            .expect("runs");
        let text = String::from_utf8(o.stdout).expect("utf-8");
        assert!(
            text.contains("Examples:") && text.contains(&format!("marionette {command}")),
            "`marionette {command} --help` shows no example:\n{text}"
        );
    }
}

#[test]
fn the_getting_started_pictures_are_made_by_its_replay() {
    pictures_are_made_by_the_replay("getting-started", 6);
}

#[test]
fn the_character_pictures_are_made_by_its_replay() {
    pictures_are_made_by_the_replay("characters", 6);
}

/// Every picture `docs/NAME.md` shows from `docs/NAME/` is a screenshot of
/// `scripts/NAME-replay.ron` and is there; the page shows at least `least` of them.
#[test]
fn the_mocap_pictures_are_made_by_its_replay() {
    pictures_are_made_by_the_replay("mocap", 5);
}

/// Every picture `docs/physics.md` shows is a screenshot of `scripts/physics-replay.ron`.
#[test]
fn the_physics_pictures_are_made_by_its_replay() {
    pictures_are_made_by_the_replay("physics", 6);
}

fn pictures_are_made_by_the_replay(name: &str, least: usize) {
    let page = std::fs::read_to_string(repo().join(format!("docs/{name}.md"))).expect("page");
    let file = format!("{name}-replay.ron");
    let text = std::fs::read_to_string(repo().join("scripts").join(&file)).expect("the replay");
    let parsed = marionette_editing::Script::parse(&text, &file).expect("the replay parses");
    let shots: Vec<String> = parsed
        .steps
        .iter()
        .filter_map(|s| match s {
            marionette_editing::Step::Screenshot(p) => Some(p.display().to_string()),
            _ => None,
        })
        .collect();
    let pictures: Vec<&str> = page
        .split(&format!("]({name}/"))
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .collect();
    assert!(pictures.len() >= least, "{pictures:?}");
    for picture in pictures {
        let path = format!("docs/{name}/{picture}");
        assert!(
            shots.contains(&path),
            "{path} is not made by the replay ({shots:?})"
        );
        assert!(repo().join(&path).exists(), "{path} is missing");
    }
}
