//! `marionette physics masses` as scripts see it: the JSON's numbers against the figure's own
//! forward kinematics (the built-in humanoid's hand-set masses follow de Leva, so both centres of
//! mass must agree closely), the female column and another total, a figure with no roles, and
//! bad input refused with exit 1 naming what is wrong.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod carry;
mod import_masses;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn marionette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .output()
        .expect("runs")
}

fn json(args: &[&str]) -> Value {
    let o = marionette(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// The JSON a command prints, when it exits 0 or 3 (something flagged).
fn flagged_json(args: &[&str]) -> Value {
    let o = marionette(args);
    assert!(matches!(o.status.code(), Some(0 | 3)), "{o:?}");
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// `command` with `args` exits 1 with a message holding `expected`, and no panic.
fn refused(command: &[&str], args: &[&str], expected: &str) {
    let all: Vec<&str> = command.iter().chain(args).copied().collect();
    let o = marionette(&all);
    assert_eq!(o.status.code(), Some(1), "{args:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(expected), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

fn number(v: &Value) -> f64 {
    v.as_f64().expect("a number")
}

#[test]
fn masses_of_the_humanoid_agree_with_its_own_centre_of_mass() {
    let humanoid = repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    let masses = json(&["physics", "masses", humanoid, "--json"]);
    assert_eq!(masses["mass_model"], "de Leva male");
    assert_eq!(number(&masses["mass_kg"]), 75.0);
    let segments = masses["segments"].as_array().expect("segments");
    let shares: f64 = segments.iter().map(|s| number(&s["share_percent"])).sum();
    let kilograms: f64 = segments.iter().map(|s| number(&s["mass_kg"])).sum();
    assert!((shares - 100.0).abs() < 1e-9, "{shares}");
    assert!((kilograms - 75.0).abs() < 1e-9, "{kilograms}");
    // `fk` weighs the humanoid by its file's own masses (set from de Leva by hand).
    let fk = json(&["fk", humanoid, "--json"]);
    for axis in 0..3 {
        let (a, b) = (number(&masses["com"][axis]), number(&fk["com"][axis]));
        assert!((a - b).abs() < 0.01, "axis {axis}: {a} vs {b}");
    }
    let fraction = number(&masses["com_fraction"]);
    assert!((0.55..=0.60).contains(&fraction), "{fraction}");
    let female = json(&[
        "physics", "masses", humanoid, "--female", "--mass", "60", "--json",
    ]);
    assert_eq!(female["mass_model"], "de Leva female");
    let head = female["segments"]
        .as_array()
        .expect("segments")
        .iter()
        .find(|s| s["name"] == "head")
        .expect("a head");
    assert!(
        (number(&head["share_percent"]) - 6.68).abs() < 0.01,
        "{head}"
    );
    assert!(
        (number(&head["mass_kg"]) - 60.0 * 6.68 / 99.99).abs() < 1e-9,
        "{head}"
    );
}

#[test]
fn a_figure_without_roles_and_bad_input_are_said_so() {
    let stick = repo().join("skeletons/stickman.ron");
    let stick = stick.to_str().expect("path");
    let own = json(&["physics", "masses", stick, "--json"]);
    assert_eq!(own["mass_model"], "skeleton");
    assert!(own["no_roles"].is_string(), "{own}");
    let table = marionette(&["physics", "masses", stick]);
    assert!(String::from_utf8_lossy(&table.stdout).contains("no humanoid roles"));
    let humanoid = repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    let pose = repo().join("crates/fuzz/seeds/pose-pose.ron");
    for (args, expected) in [
        (vec![humanoid, "--mass", "0"], "mass must be"),
        (vec![humanoid, "--mass", "-3"], "mass must be"),
        (vec![humanoid, "--mass", "inf"], "mass must be"),
        (vec![humanoid, "--figure", "A"], "--figure"),
        (vec![pose.to_str().expect("path")], "not a figure"),
        (vec!["no-such-file.ron"], "no-such-file.ron"),
    ] {
        refused(&["physics", "masses"], &args, expected);
    }
}

fn capture(name: &str) -> String {
    let path = Path::new("/usr/share/assimp/models/BVH").join(name);
    assert!(
        path.exists(),
        "{}: install assimp-testmodels",
        path.display()
    );
    path.display().to_string()
}

#[test]
fn check_reads_flights_says_its_guess_and_exits_by_what_it_flags() {
    let jumps = capture("01_01.bvh");
    let o = marionette(&["physics", "check", &jumps]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("guessed: CMU's units"), "{said}");
    assert!(said.contains("10 ballistic"), "{said}");
    let report = json(&["physics", "check", &jumps, "--scale", "0.05644", "--json"]);
    assert_eq!(report["frames"], 2752);
    assert_eq!(report["com"].as_array().expect("com").len(), 2752);
    assert_eq!(report["support"].as_array().expect("support").len(), 2752);
    assert_eq!(number(&report["scale"]), 0.05644);
    assert!(report["unit_hint"].is_null());
    let spans = report["spans"].as_array().expect("spans");
    assert_eq!(spans.len(), 10);
    for s in spans {
        assert_eq!(s["kind"], "ballistic");
        // Each span's frames have no support; the frames either side have some.
        let (from, to) = (
            s["from"].as_u64().expect("from") as usize,
            s["to"].as_u64().expect("to") as usize,
        );
        for f in from..=to {
            assert_eq!(report["support"][f], 0, "frame {f}");
        }
        assert!(number(&report["support"][from - 1]) > 0.0);
        assert!(number(&report["support"][to + 1]) > 0.0);
    }
    // Read as centimetres: the flights agree on a g of about 1.7 and the unit is told.
    let wrong = json(&["physics", "check", &jumps, "--scale", "0.01", "--json"]);
    let hint = number(&wrong["unit_hint"]["scale"]);
    assert!((hint - 0.05644).abs() < 0.1 * 0.05644, "{hint}");
    // The climb's hangs flag nothing as a flight, but some of its quiet frames lean off
    // their support: exit 3.
    let climb = marionette(&["physics", "check", &capture("01_03.bvh")]);
    assert_eq!(climb.status.code(), Some(3));
}

#[test]
fn check_refuses_what_it_cannot_read_naming_it() {
    let humanoid = repo().join("skeletons/humanoid.ron");
    let humanoid = humanoid.to_str().expect("path");
    let jumps = capture("01_01.bvh");
    let dir = tempfile::tempdir().expect("a folder");
    let doc = dir.path().join("still.marionette.ron");
    std::fs::write(
        &doc,
        format!("Document(version: 1, skeleton: {humanoid:?}, locks: [], sequences: [])"),
    )
    .expect("write");
    let doc = doc.to_str().expect("path");
    for (args, expected) in [
        (vec![humanoid], "not a capture or a document"),
        (vec![&jumps, "--sequence", "x"], "are for documents"),
        (vec![&jumps, "--mass", "0"], "mass must be"),
        (vec![doc], "--sequence NAME"),
        (vec![doc, "--sequence", "jump"], "\"jump\""),
        (
            vec![doc, "--sequence", "jump", "--scale", "2"],
            "are for captures",
        ),
        (vec!["missing.bvh"], "missing.bvh"),
    ] {
        refused(&["physics", "check"], &args, expected);
    }
}

#[test]
fn check_bakes_a_documents_sequence_and_its_locks_hold_it_up() {
    let crouch = read(&repo().join("crates/fuzz/seeds/document-crouch.marionette.ron"));
    let (_dir, doc) = document_folder("humanoid.ron", "crouch.marionette.ron", &crouch);
    let doc = doc.to_str().expect("path");
    let report = json(&["physics", "check", doc, "--sequence", "crouch", "--json"]);
    assert_eq!(report["frames"], 25);
    assert_eq!(number(&report["fps"]), 24.0);
    assert!(report["scale"].is_null());
    assert!(report["spans"].as_array().expect("spans").is_empty());
    // Both heels are locked on the floor on every frame: at least two supports each frame.
    for (f, n) in report["support"]
        .as_array()
        .expect("support")
        .iter()
        .enumerate()
    {
        assert!(number(n) >= 2.0, "frame {f}: {n}");
    }
    // The crouch lowers the centre of mass.
    let com = report["com"].as_array().expect("com");
    assert!(
        number(&com[24][1]) < number(&com[0][1]) - 0.04,
        "{} {}",
        com[0],
        com[24]
    );
}

/// A folder holding the hand-keyed jump (crates/cli/tests/data: seven whole-pose keys, the
/// heels locked before and after) beside the humanoid it names.
fn jump_folder() -> (tempfile::TempDir, PathBuf) {
    let jump = read(&repo().join("crates/cli/tests/data/jump.marionette.ron"));
    document_folder("humanoid.ron", "jump.marionette.ron", &jump)
}

/// A scratch folder holding the document `text` as `name` beside a copy of the shipped
/// skeleton `skeleton` (in `skeletons/`, where the document names it).
fn document_folder(skeleton: &str, name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::create_dir(dir.path().join("skeletons")).expect("a folder");
    std::fs::copy(
        repo().join("skeletons").join(skeleton),
        dir.path().join("skeletons").join(skeleton),
    )
    .expect("copy");
    let doc = dir.path().join(name);
    std::fs::write(&doc, text).expect("write");
    (dir, doc)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("a file")
}

/// Every lock of `sequence` of `doc` within 1 mm on every frame it holds, by `marionette bake
/// --json`'s own summary (written to `out`), read by `read` ([`json`]: exit 0; [`flagged_json`]:
/// 0 or 3).
fn locks_within_a_millimetre(doc: &Path, sequence: &str, out: &Path, read: fn(&[&str]) -> Value) {
    let summary = read(&[
        "bake",
        doc.to_str().expect("path"),
        "--sequence",
        sequence,
        "--out",
        out.to_str().expect("path"),
        "--json",
    ]);
    for lock in summary["locks"].as_array().expect("locks") {
        assert!(number(&lock["max_error"]) <= 1e-3, "{lock}");
    }
}

/// The least-squares parabola's g, root-mean-square residual and horizontal acceleration of the
/// centre of mass over frames `from..=to` of a check's JSON (the test's own fit).
fn fitted(report: &Value, from: usize, to: usize) -> (f64, f64, f64) {
    let fps = number(&report["fps"]);
    let com = report["com"].as_array().expect("com");
    let fit = |axis: usize| {
        let mut m = nalgebra::Matrix3::<f64>::zeros();
        let mut r = nalgebra::Vector3::<f64>::zeros();
        for (k, point) in com[from..=to].iter().enumerate() {
            let t = k as f64 / fps;
            let row = nalgebra::Vector3::new(1.0, t, t * t);
            m += row * row.transpose();
            r += row * number(&point[axis]);
        }
        let c = m.lu().solve(&r).expect("solvable");
        let n = (to - from + 1) as f64;
        let residual = ((from..=to)
            .map(|f| {
                let t = (f - from) as f64 / fps;
                (c[0] + c[1] * t + c[2] * t * t - number(&com[f][axis])).powi(2)
            })
            .sum::<f64>()
            / n)
            .sqrt();
        (c[2], residual)
    };
    let ((ay, residual), (ax, _), (az, _)) = (fit(1), fit(0), fit(2));
    (-2.0 * ay, residual, 2.0 * ax.hypot(az))
}

/// Every frame's pose of a bake, flattened.
fn baked(doc: &Path, out: &Path) -> Vec<Vec<f64>> {
    let o = marionette(&[
        "bake",
        doc.to_str().expect("path"),
        "--sequence",
        "jump",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let frames: Value =
        serde_json::from_str(&std::fs::read_to_string(out).expect("frames")).expect("JSON");
    frames["frames"]
        .as_array()
        .expect("frames")
        .iter()
        .map(|f| {
            let pose = &f["pose"];
            let mut v: Vec<f64> = pose["root"]
                .as_array()
                .expect("root")
                .iter()
                .map(number)
                .collect();
            for values in pose["joints"].as_object().expect("joints").values() {
                v.extend(values.as_array().expect("values").iter().map(number));
            }
            v
        })
        .collect()
}

#[test]
fn a_keyed_jump_fixed_flies_at_g_and_the_rest_is_unchanged() {
    let (dir, doc) = jump_folder();
    let path = |name: &str| dir.path().join(name);
    let doc_arg = doc.to_str().expect("path");
    let before = json(&["physics", "check", doc_arg, "--sequence", "jump", "--json"]);
    let spans = before["spans"].as_array().expect("spans");
    assert_eq!(spans.len(), 1, "{spans:?}");
    let (a, b) = (
        spans[0]["from"].as_u64().expect("from") as usize,
        spans[0]["to"].as_u64().expect("to") as usize,
    );
    assert_eq!((a, b), (16, 35));
    let (g, _, _) = fitted(&before, a, b);
    assert!(
        (g - 9.81).abs() > 1.0,
        "the keyed jump does not fly at g: {g}"
    );
    let fixed = path("fixed.marionette.ron");
    let span = format!("{a}..{b}");
    let o = marionette(&[
        "physics",
        "fix",
        doc_arg,
        "--sequence",
        "jump",
        "--span",
        &span,
        "--ballistic",
        "--out",
        fixed.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = json(&[
        "physics",
        "check",
        fixed.to_str().expect("path"),
        "--sequence",
        "jump",
        "--json",
    ]);
    let (g, residual, across) = fitted(&after, a, b);
    assert!((g - 9.81).abs() <= 0.01, "{g}");
    assert!(residual <= 1e-4, "{residual}");
    assert!(across <= 0.01, "{across}");
    // The feet locked at take-off and landing stay where they are (every lock within 1 mm on
    // every frame it holds, by the bake's own summary).
    locks_within_a_millimetre(&fixed, "jump", &path("summary.json"), json);
    // Baked frames outside the span are as they were, bit for bit.
    let (old, new) = (
        baked(&doc, &path("old.json")),
        baked(&fixed, &path("new.json")),
    );
    assert_eq!(old.len(), new.len());
    for f in (0..a).chain(b + 1..old.len()) {
        assert_eq!(old[f], new[f], "frame {f}");
    }
    // With an apex: the flight lasts what that rise needs (to a frame), later frames move with it.
    let higher = path("higher.marionette.ron");
    let o = marionette(&[
        "physics",
        "fix",
        doc_arg,
        "--sequence",
        "jump",
        "--span",
        &span,
        "--apex",
        "0.5",
        "--out",
        higher.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let com = before["com"].as_array().expect("com");
    let drop = number(&com[a - 1][1]) - number(&com[b + 1][1]);
    let needs = (2.0 * 0.5 / 9.81f64).sqrt() + (2.0 * (0.5 + drop) / 9.81).sqrt();
    let lifted = baked(&higher, &path("higher.json"));
    let shift = old.len() as i64 - lifted.len() as i64;
    let flight = (b - a + 2) as f64 - shift as f64; // intervals from take-off to landing
    assert!(
        (flight / 24.0 - needs).abs() <= 1.0 / 24.0,
        "{flight} frames for {needs} s"
    );
    for f in 0..a {
        assert_eq!(old[f], lifted[f], "frame {f}");
    }
    for f in b + 1..old.len() {
        assert_eq!(old[f], lifted[(f as i64 - shift) as usize], "frame {f}");
    }
    let report = json(&[
        "physics",
        "check",
        higher.to_str().expect("path"),
        "--sequence",
        "jump",
        "--json",
    ]);
    let (g, residual, _) = fitted(&report, a, (b as i64 - shift) as usize);
    assert!(
        (g - 9.81).abs() <= 0.01 && residual <= 1e-4,
        "{g} {residual}"
    );
}

#[test]
fn a_swinging_jump_fixed_holds_its_momentum_and_says_how_near_its_marks() {
    let jump = read(&repo().join("crates/cli/tests/data/jump-swing.marionette.ron"));
    let (dir, doc) = document_folder("humanoid.ron", "jump-swing.marionette.ron", &jump);
    let path = |name: &str| dir.path().join(name);
    let fixed = path("fixed.marionette.ron");
    let o = marionette(&[
        "physics",
        "fix",
        doc.to_str().expect("path"),
        "--sequence",
        "jump",
        "--span",
        "15..33",
        "--ballistic",
        "--momentum",
        "--mark",
        "24",
        "--out",
        fixed.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("angular momentum held at") && said.contains("frame 24:"),
        "{said}"
    );
    // Frames outside the span are as they were, bit for bit; inside, the root turned.
    let (old, new) = (
        baked(&doc, &path("old.json")),
        baked(&fixed, &path("new.json")),
    );
    for f in (0..15).chain(34..old.len()) {
        assert_eq!(old[f], new[f], "frame {f}");
    }
    let turned = (15..=33).any(|f| (old[f][3] - new[f][3]).abs() > 0.01);
    assert!(turned, "the pelvis did not turn");
    // Turning the root kept the parabola (the test's own fit over the fixed span) and the
    // locks (the bake's summary).
    let fixed_arg = fixed.to_str().expect("path");
    let report = flagged_json(&[
        "physics",
        "check",
        fixed_arg,
        "--sequence",
        "jump",
        "--json",
    ]);
    let (g, residual, across) = fitted(&report, 15, 33);
    assert!((g - 9.81).abs() <= 0.01, "{g}");
    assert!(residual <= 1e-4, "{residual}");
    assert!(across <= 0.01, "{across}");
    locks_within_a_millimetre(&fixed, "jump", &path("summary.json"), json);
}

/// Per frame, the centre of mass from `physics check` and the feet's sites (heels, toe tips)
/// from `export --format json`, seen from above (x, z).
fn com_and_feet(doc: &Path, sequence: &str, json_out: &Path) -> Vec<([f64; 2], Vec<[f64; 2]>)> {
    let doc_arg = doc.to_str().expect("path");
    let report = flagged_json(&[
        "physics",
        "check",
        doc_arg,
        "--sequence",
        sequence,
        "--json",
    ]);
    let o = marionette(&[
        "export",
        doc_arg,
        "--sequence",
        sequence,
        "--format",
        "json",
        "--out",
        json_out.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let export: Value =
        serde_json::from_str(&std::fs::read_to_string(json_out).expect("export")).expect("JSON");
    let floor = |v: &Value| [number(&v[0]), number(&v[2])];
    (report["com"].as_array().expect("com").iter())
        .zip(export["frames"].as_array().expect("frames"))
        .map(|(com, frame)| {
            let feet = ["left heel", "right heel", "left toe tip", "right toe tip"]
                .map(|s| floor(&frame["sites"][s]))
                .to_vec();
            (floor(com), feet)
        })
        .collect()
}

#[test]
fn a_lean_past_the_toes_is_brought_back_over_the_feet() {
    let lean = read(&repo().join("crates/cli/tests/data/lean.marionette.ron"));
    let (dir, doc) = document_folder("humanoid.ron", "lean.marionette.ron", &lean);
    let path = |name: &str| dir.path().join(name);
    // The test's own rule: the feet's four sites each a disc of 4 cm (as a foot's sole reaches
    // past them); the centre of mass must be 2 cm inside their hull, here a rectangle whose
    // front edge is the toe tips'.
    let ahead_of_toes = |(com, feet): &([f64; 2], Vec<[f64; 2]>)| {
        let toes = feet[2][1].max(feet[3][1]);
        com[1] - (toes + 0.04)
    };
    let before = com_and_feet(&doc, "lean", &path("before.json"));
    let worst = before.iter().map(ahead_of_toes).fold(f64::MIN, f64::max);
    assert!(
        worst > 0.015,
        "the keyed lean is not past the toes: {worst}"
    );
    let steady = path("steady.marionette.ron");
    let o = marionette(&[
        "physics",
        "fix",
        doc.to_str().expect("path"),
        "--sequence",
        "lean",
        "--span",
        "0..40",
        "--standing",
        "--out",
        steady.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after = com_and_feet(&steady, "lean", &path("after.json"));
    for (f, frame) in after.iter().enumerate() {
        let ahead = ahead_of_toes(frame);
        assert!(
            ahead <= -0.02 + 1e-4,
            "frame {f}: {ahead} m from the toes' edge"
        );
    }
    // Frames that stood well already are as they were; the locks hold as they did.
    let moved = |a: &([f64; 2], Vec<[f64; 2]>), b: &([f64; 2], Vec<[f64; 2]>)| {
        (std::iter::once(&a.0)
            .chain(&a.1)
            .zip(std::iter::once(&b.0).chain(&b.1)))
        .map(|(p, q)| (p[0] - q[0]).hypot(p[1] - q[1]))
        .fold(0.0, f64::max)
    };
    for f in 0..4 {
        assert!(moved(&before[f], &after[f]) < 1e-9, "frame {f}");
    }
    locks_within_a_millimetre(&steady, "lean", &path("summary.json"), flagged_json);
}

#[test]
fn a_fix_that_cannot_be_made_is_refused_and_writes_nothing() {
    let (dir, doc) = jump_folder();
    let doc = doc.to_str().expect("path");
    let out = dir.path().join("out.marionette.ron");
    let out_arg = out.to_str().expect("path");
    for (args, expected) in [
        (vec!["--span", "16..35"], "--momentum or --apex"),
        (
            vec!["--span", "16..35", "--ballistic", "--standing"],
            "one or the other",
        ),
        (
            vec!["--span", "20..30", "--standing"],
            "frame 20 is marked standing but nothing supports it",
        ),
        (
            vec!["--span", "16..35", "--momentum", "--mark", "40"],
            "frame 40 is marked but is not inside the span 16..35",
        ),
        (
            vec![
                "--span",
                "16..35",
                "--momentum",
                "--mark",
                "17",
                "--mark",
                "18",
                "--mark",
                "19",
                "--mark",
                "20",
                "--mark",
                "21",
            ],
            "at most four",
        ),
        (vec!["--span", "0..10", "--ballistic"], "not a span inside"),
        (vec!["--span", "40..60", "--ballistic"], "not a span inside"),
        (vec!["--span", "3..10", "--ballistic"], "not a flight"),
        (vec!["--span", "16..35", "--apex", "-1"], "apex"),
        (
            vec!["--span", "16..35", "--ballistic", "--mass", "0"],
            "mass must be",
        ),
        (vec!["--span", "35..15", "--ballistic"], "A ≤ B"),
    ] {
        let mut all = vec![
            "physics",
            "fix",
            doc,
            "--sequence",
            "jump",
            "--out",
            out_arg,
        ];
        all.extend(&args);
        let o = marionette(&all);
        assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!out.exists(), "{args:?}: nothing written");
    }
}

#[test]
fn a_ballistic_fix_of_a_figure_without_roles_is_refused() {
    let (dir, doc) = document_folder(
        "stickman.ron",
        "hop.marionette.ron",
        "Document(version: 1, skeleton: \"skeletons/stickman.ron\", locks: [], sequences: [\
         Sequence(name: \"hop\", fps: 24.0, rotation: Slerp, root: Linear, hold_locks: true, keys: [\
         Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), joints: {})),\
         Key(frame: 10, pose: Pose(root: (0.0, 0.4, 0.0), joints: {})),\
         Key(frame: 20, pose: Pose(root: (0.0, 0.0, 0.0), joints: {}))])])",
    );
    let out = dir.path().join("out.marionette.ron");
    let o = marionette(&[
        "physics",
        "fix",
        doc.to_str().expect("path"),
        "--sequence",
        "hop",
        "--span",
        "6..14",
        "--ballistic",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("humanoid roles") && err.contains("hop.marionette.ron"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn masses_of_a_capture_are_in_metres_at_the_guess_or_the_scale_given() {
    let jumps = capture("01_01.bvh");
    let guessed = json(&["physics", "masses", &jumps, "--json"]);
    let height = number(&guessed["height_m"]);
    assert!((1.3..=1.9).contains(&height), "{height} m at CMU's unit");
    assert_eq!(guessed["mass_model"], "de Leva male");
    let centimetres = json(&["physics", "masses", &jumps, "--scale", "0.01", "--json"]);
    let small = number(&centimetres["height_m"]);
    // Lengths scale with the unit (not to the last digit: an imported bone's body radius is
    // kept between 5 mm and 6 cm).
    let expected = height * 0.01 / (0.0254 / 0.45);
    assert!(
        (small / expected - 1.0).abs() < 0.03,
        "{small} vs {expected}"
    );
    let humanoid = repo().join("skeletons/humanoid.ron");
    let o = marionette(&[
        "physics",
        "masses",
        humanoid.to_str().expect("path"),
        "--scale",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--scale is for captures"));
}

/// A document's figure is weighed by its own body (`body` in the document) unless `--mass` or
/// `--female` say otherwise.
#[test]
fn a_documents_body_weighs_its_figure_unless_the_flags_say() {
    let jump = read(&repo().join("crates/cli/tests/data/jump.marionette.ron"));
    let weighed = jump.replacen(
        "    sequences: [",
        "    body: Some(Body(mass: 58.0, sex: Female)),\n    sequences: [",
        1,
    );
    let (_dir, doc) = document_folder("humanoid.ron", "weighed.marionette.ron", &weighed);
    let doc = doc.to_str().expect("path");
    let check = |extra: &[&str]| {
        let mut args = vec!["physics", "check", doc, "--sequence", "jump", "--json"];
        args.extend(extra);
        flagged_json(&args)
    };
    let own = check(&[]);
    assert_eq!(number(&own["mass_kg"]), 58.0);
    assert!(
        own["mass_model"]
            .as_str()
            .expect("model")
            .contains("female"),
        "{own}"
    );
    let heavier = check(&["--mass", "90"]);
    assert_eq!(number(&heavier["mass_kg"]), 90.0);
    assert!(
        !heavier["mass_model"]
            .as_str()
            .expect("model")
            .contains("female")
    );
    let masses = json(&["physics", "masses", doc, "--json"]);
    assert_eq!(number(&masses["mass_kg"]), 58.0, "{masses}");
}
