//! The `marionette` command as scripts see it: output lines, JSON, exit codes, and no backtrace
//! whatever the input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn skeletons() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skeletons")
}

fn marionette(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_marionette"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8")
}

fn path(name: &str) -> String {
    skeletons().join(name).display().to_string()
}

fn fk_json(args: &[&str]) -> Value {
    let o = marionette(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("one JSON object")
}

fn point(v: &Value) -> [f64; 3] {
    let a = v.as_array().expect("array");
    assert_eq!(a.len(), 3);
    [0, 1, 2].map(|i| a[i].as_f64().expect("number"))
}

fn assert_near(got: [f64; 3], want: [f64; 3], what: &str) {
    let d = (0..3)
        .map(|i| (got[i] - want[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(d < 1e-9, "{what}: {got:?} vs {want:?}");
}

#[test]
fn check_reports_every_shipped_skeleton_ok() {
    let mut files: Vec<String> = std::fs::read_dir(skeletons())
        .expect("dir")
        .map(|e| e.expect("entry").path().display().to_string())
        .filter(|p| p.ends_with(".ron"))
        .collect();
    files.sort();
    let args: Vec<&str> = std::iter::once("check")
        .chain(files.iter().map(String::as_str))
        .collect();
    let o = marionette(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), files.len());
    assert!(
        out.contains(&format!(
            "ok {}: 22 joints, 51 dofs, 7 sites",
            path("humanoid.ron")
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "ok {}: 25 joints, 25 dofs, 4 sites",
            path("buss_double_y.ron")
        )),
        "{out}"
    );
}

#[test]
fn check_fails_with_lines_naming_the_file_and_no_backtrace() {
    let dir = tempfile::tempdir().expect("tmp");
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "Skeleton(name: \"x\", hierarchy: Joint(\"a\", []), joints: {\"a\": (mass: -1)})",
    )
    .expect("write");
    let garbage = dir.path().join("garbage.ron");
    std::fs::write(&garbage, [0xff, 0xfe, 0x00, 0x41]).expect("write");
    let empty = dir.path().join("empty.ron");
    std::fs::write(&empty, "").expect("write");
    let bad_s = bad.display().to_string();
    let garbage_s = garbage.display().to_string();
    let empty_s = empty.display().to_string();
    let dir_s = dir.path().display().to_string();
    let good = path("stickman.ron");
    let o = marionette(&[
        "check",
        &bad_s,
        &good,
        &garbage_s,
        &empty_s,
        &dir_s,
        "/no/such.ron",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!("ok {good}: 11 joints, 20 dofs, 4 sites\n")
    );
    let err = stderr(&o);
    for f in [&bad_s, &garbage_s, &empty_s, &dir_s, "/no/such.ron"] {
        assert!(
            err.lines().any(|l| l.starts_with(&format!("{f}:"))),
            "{f} not named in\n{err}"
        );
    }
    assert!(err.contains("joint \"a\": mass -1 is negative"), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace") && !err.contains("internal error"),
        "{err}"
    );
}

#[test]
fn check_validates_poses_against_a_skeleton() {
    let dir = tempfile::tempdir().expect("tmp");
    let good = dir.path().join("good.ron");
    std::fs::write(&good, "// a pose\nPose(joints: {\"right hand\": [35.0]})").expect("write");
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "Pose(joints: {\"right hand\": [350.0]})").expect("write");
    let (good_s, bad_s) = (good.display().to_string(), bad.display().to_string());
    let skel = path("stickman.ron");
    let o = marionette(&["check", "--skeleton", &skel, &good_s, &bad_s, &skel]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "ok {good_s}: pose of \"stickman\", 1 of 20 dofs away from rest"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!("ok {skel}: ")),
        "skeletons are still checked with --skeleton"
    );
    assert!(
        stderr(&o).contains(&format!("{bad_s}: joint \"right hand\": DOF 1 value 350")),
        "{}",
        stderr(&o)
    );
    // Without --skeleton a pose cannot be checked, and the message says why.
    let o = marionette(&["check", &good_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--skeleton"), "{}", stderr(&o));
}

#[test]
fn fk_json_matches_buss_y_rest_positions() {
    let v = fk_json(&["fk", &path("buss_y.ron"), "--json"]);
    let joints = v["joints"].as_object().expect("joints");
    let names: Vec<&str> = joints.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["j0", "j1", "j3", "j5", "j2", "j4", "j6"],
        "hierarchy order"
    );
    assert_near(point(&v["joints"]["j5"]), [0.7, 1.3, 0.0], "j5");
    assert_near(point(&v["joints"]["j6"]), [-0.8, 1.5, 0.0], "j6");
    assert_near(point(&v["sites"]["e0"]), [0.7, 2.0, 0.0], "e0");
    assert_near(point(&v["sites"]["e1"]), [-0.8, 1.9, 0.0], "e1");
    // Equal masses at the joint origins (no bodies): the centre of mass is their mean.
    let mean_x = (0.0 + 0.0 + 0.0 + 0.5 - 0.5 + 0.7 - 0.8) / 7.0;
    let mean_y = (-0.5 + 0.4 + 0.4 + 1.0 + 1.0 + 1.3 + 1.5) / 7.0;
    assert_near(point(&v["com"]), [mean_x, mean_y, 0.0], "com");
}

#[test]
fn fk_json_matches_the_double_y_table() {
    let v = fk_json(&["fk", &path("buss_double_y.ron"), "--json"]);
    let r = 1.0 / 2f64.sqrt();
    let h = 3f64.sqrt() / 2.0;
    assert_near(
        point(&v["sites"]["A"]),
        [0.5 * r + 1.5 * h, -0.5 + 0.5 * r + 0.75, 0.0],
        "A",
    );
    assert_near(
        point(&v["sites"]["B"]),
        [0.5 * r + 1.5 * h, -0.5 + 0.5 * r + 1.5 * h, 0.0],
        "B",
    );
    assert_near(
        point(&v["sites"]["C"]),
        [-0.5 * r - 1.5 * h, -0.5 + 0.5 * r + 1.5 * h, 0.0],
        "C",
    );
    assert_near(
        point(&v["sites"]["D"]),
        [-0.5 * r - 1.5 * h, -0.5 + 0.5 * r + 0.75, 0.0],
        "D",
    );
    assert_near(
        point(&v["joints"]["n21"]),
        [-0.5 * r - h, -0.5 + 0.5 * r + h, 0.0],
        "n21",
    );
}

#[test]
fn fk_with_a_pose_matches_the_planar_chain_closed_form() {
    let dir = tempfile::tempdir().expect("tmp");
    let pose = dir.path().join("pose.ron");
    let degrees: [f64; 6] = [30.0, -45.0, 60.0, 10.0, -80.0, 25.0];
    let joints: String = degrees
        .iter()
        .enumerate()
        .map(|(i, d)| format!("\"j{}\": [{d}],", i + 1))
        .collect();
    std::fs::write(
        &pose,
        format!("Pose(root: (0.0, 0.5, 0.0), joints: {{{joints}}})"),
    )
    .expect("write");
    let v = fk_json(&[
        "fk",
        &path("planar6.ron"),
        "--pose",
        &pose.display().to_string(),
        "--json",
    ]);
    let lengths = [0.9, 0.6, 0.9, 1.5, 1.5, 0.9];
    let (mut x, mut y, mut angle) = (-2.3, 0.5, 0.0f64);
    for (i, (l, d)) in lengths.iter().zip(degrees).enumerate() {
        angle += d.to_radians();
        assert_near(
            point(&v["joints"][format!("j{}", i + 1)]),
            [x, y, 0.0],
            "joint",
        );
        x += l * angle.cos();
        y += l * angle.sin();
    }
    assert_near(point(&v["sites"]["tip"]), [x, y, 0.0], "tip");
}

#[test]
fn fk_prints_a_table_and_reports_bad_poses() {
    let o = marionette(&["fk", &path("stickman.ron")]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.lines().next().is_some_and(|l| l.starts_with("joint")),
        "{out}"
    );
    assert!(
        out.contains("right fingertips") && out.contains("centre of mass"),
        "{out}"
    );
    let dir = tempfile::tempdir().expect("tmp");
    let pose = dir.path().join("p.ron");
    std::fs::write(&pose, "Pose(joints: {\"tail\": [1]})").expect("write");
    let o = marionette(&[
        "fk",
        &path("stickman.ron"),
        "--pose",
        &pose.display().to_string(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).is_empty(),
        "nothing on standard output on bad input"
    );
    assert!(
        stderr(&o).contains("joint \"tail\" is not in skeleton \"stickman\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn help_exists_for_every_command() {
    for cmd in [
        &["--help"][..],
        &["check", "--help"],
        &["fk", "--help"],
        &["demo", "--help"],
        &["bake", "--help"],
    ] {
        let o = marionette(cmd);
        assert!(o.status.success(), "{cmd:?}");
        assert!(stdout(&o).contains("Usage:"), "{cmd:?}");
    }
    let o = marionette(&[]);
    assert_eq!(o.status.code(), Some(2), "no command: usage and exit 2");
}

#[test]
fn demo_runs_on_the_built_in_humanoid() {
    let o = marionette(&["demo", "--frames", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("built-in humanoid: 22 joints, 51 dofs, 7 sites"),
        "{out}"
    );
    assert_eq!(out.matches("frame ").count(), 3);
}

fn problem(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/problems")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn solve_json_follows_the_contract() {
    let o = marionette(&["solve", &problem("stickman_reach.ron"), "--json"]);
    let goals: Value = serde_json::from_str::<Value>(&stdout(&o)).expect("json")["goals"].clone();
    assert!(
        goals
            .as_array()
            .expect("goals")
            .iter()
            .all(|g| g["status"] == "met"),
        "{goals}"
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(v["solver"], "dls");
    assert_eq!(v["converged"], true);
    assert!(v["iterations"].as_u64().is_some() && v["micros"].as_f64().is_some());
    let residual = v["residual"].as_f64().expect("residual");
    assert!(residual <= 1e-4);
    assert_eq!(v["goals"][0]["index"], 0);
    assert_eq!(v["goals"][0]["kind"], "position");
    assert_eq!(v["goals"][0]["error"].as_f64(), Some(residual));
    // Every joint is listed, in degrees; the site lands on the target.
    let joints = v["pose"]["joints"].as_object().expect("joints");
    assert_eq!(joints.len(), 11);
    assert_eq!(joints["head"], serde_json::json!([0.0, 0.0]));
    assert_eq!(v["pose"]["root"], serde_json::json!([0.0, 0.0, 0.0]));
    let tip = point(&v["sites"]["right fingertips"]);
    let d = ((tip[0] + 0.3).powi(2) + (tip[1] - 1.25).powi(2) + (tip[2] - 0.3).powi(2)).sqrt();
    assert!(d <= 1e-4, "{tip:?}");
    // Only the right arm moved (base "right arm").
    assert_eq!(joints["torso"], serde_json::json!([0.0, 0.0, 0.0]));
}

#[test]
fn solve_exit_codes_follow_the_contract() {
    // Not converged: exit 3, the best pose still printed.
    let o = marionette(&["solve", &problem("unreachable.ron"), "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("pose printed");
    assert_eq!(v["converged"], false);
    // Why: 3 m ahead is beyond the arm's reach, by about 2.4 m.
    assert_eq!(v["goals"][0]["status"], "out_of_reach", "{v}");
    let short = v["goals"][0]["short_by"].as_f64().expect("short_by");
    assert!((2.0..3.0).contains(&short), "{short}");
    // A goal the elbow's limit holds back names the elbow.
    let o = marionette(&["solve", &problem("held_by_limits.ron"), "--json"]);
    assert_eq!(o.status.code(), Some(3));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("pose printed");
    assert_eq!(v["goals"][0]["status"], "held_by_limits", "{v}");
    assert_eq!(
        v["goals"][0]["held_by"],
        serde_json::json!([{"joint": "right hand", "dof": 0}])
    );
    let o = marionette(&["solve", &problem("held_by_limits.ron")]);
    assert!(
        stdout(&o).contains("held by the limits of right hand"),
        "{}",
        stdout(&o)
    );
    // Bad input: exit 1, every defect named, nothing on standard output.
    let o = marionette(&["solve", &problem("bad_goals.ron"), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let err = stderr(&o);
    for fragment in [
        "frozen: joint \"right elbw\" is not in skeleton \"humanoid\"",
        "goal 0 (position): site \"right fingertip\" is not in skeleton",
        "goal 1 (aim): axis is the zero vector",
        "goal 2 (position): weight -1 is not a positive number",
    ] {
        assert!(err.contains(fragment), "{fragment} missing in\n{err}");
    }
    let o = marionette(&["solve", &problem("stickman_reach.ron"), "--solver", "magic"]);
    assert_eq!(o.status.code(), Some(2), "clap rejects unknown solvers");
    assert!(
        stderr(&o).contains("unknown solver \"magic\""),
        "{}",
        stderr(&o)
    );
    let o = marionette(&[
        "check",
        &problem("bad_goals.ron"),
        &problem("stickman_reach.ron"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("problem on \"stickman\", 1 goals, 3 state entries move"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("goal 1 (aim): axis is the zero vector"));
    let o = marionette(&["solve", "/no/such/problem.ron"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("/no/such/problem.ron: "));
}

#[test]
fn every_solver_keeps_both_feet_planted_while_reaching() {
    for solver in ["dls", "sdls", "ccd"] {
        let o = marionette(&[
            "solve",
            &problem("humanoid_feet_locked.ron"),
            "--solver",
            solver,
            "--max-iterations",
            "500",
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(0), "{solver}: {}", stderr(&o));
        let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
        assert_near_mm(point(&v["sites"]["left heel"]), [0.09, 0.0, -0.05]);
        assert_near_mm(point(&v["sites"]["right toe tip"]), [-0.09, 0.0, 0.22]);
        assert_near_mm(point(&v["sites"]["right fingertips"]), [-0.25, 1.1, 0.45]);
    }
}

fn assert_near_mm(got: [f64; 3], want: [f64; 3]) {
    let d = (0..3)
        .map(|i| (got[i] - want[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(d < 1e-3, "{got:?} vs {want:?}");
}

#[test]
fn the_analytic_solver_reports_its_swivel() {
    let o = marionette(&[
        "solve",
        &problem("arm7_pose.ron"),
        "--solver",
        "analytic",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["iterations"], 1);
    assert!(v["residual"].as_f64().expect("residual") < 1e-12);
    let angle = v["swivel"]["angle"]
        .as_f64()
        .expect("swivel angle in degrees");
    let intervals = v["swivel"]["intervals"].as_array().expect("intervals");
    assert!(!intervals.is_empty());
    let inside = intervals.iter().any(|i| {
        let (a, b) = (i[0].as_f64().expect("start"), i[1].as_f64().expect("end"));
        a <= angle && angle <= b
    });
    assert!(inside, "{angle} in {intervals:?}");
    // A chain that is not a limb: exit 1 with the reason.
    let o = marionette(&[
        "solve",
        &problem("humanoid_feet_locked.ron"),
        "--solver",
        "analytic",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not a limb"), "{}", stderr(&o));
}

#[test]
fn solver_options_apply_to_their_solver_only() {
    let o = marionette(&[
        "solve",
        &problem("arm7_pose.ron"),
        "--solver",
        "analytic",
        "--swivel",
        "-30",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(
        (v["swivel"]["angle"].as_f64().expect("angle") + 30.0).abs() < 1e-9,
        "{v}"
    );
    assert_eq!(v["swivel"]["reach"], "within_limits");
    let o = marionette(&[
        "solve",
        &problem("stickman_reach.ron"),
        "--damping",
        "0.05",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = marionette(&[
        "solve",
        &problem("stickman_reach.ron"),
        "--solver",
        "ccd",
        "--damping",
        "0.05",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("a damping applies to the dls solver, not to ccd"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn bench_runs_only_the_protocols_asked_for_and_refuses_unknown_ones() {
    let o = marionette(&[
        "bench", "--quick", "--json", "--only", "planar", "--only", "limb",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let tables: Value = serde_json::from_str(&stdout(&o)).expect("one JSON array");
    let titles: Vec<String> = tables
        .as_array()
        .expect("array")
        .iter()
        .map(|t| t["title"].as_str().expect("title").to_owned())
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(titles[0].contains("planar chain"), "{titles:?}");
    assert!(titles[1].contains("Analytic limb"), "{titles:?}");

    let o = marionette(&["bench", "--only", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("nope") && err.contains("limb"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A document (docs/file-formats.md) beside `dir`, on the shipped humanoid, with a lock and a pose.
fn write_document(dir: &Path, name: &str, lock_site: &str) -> String {
    let text = format!(
        r#"Document(
    version: 1,
    skeleton: "{}",
    pose: Some(Pose(root: (0.0, 0.1, 0.0), joints: {{"right knee": [40.0]}})),
    locks: [Lock(name: "left foot", goal: Position(site: "{lock_site}", target: (0.09, 0.0, 0.05)))],
)
"#,
        path("humanoid.ron")
    );
    let file = dir.join(name);
    std::fs::write(&file, text).expect("write");
    file.display().to_string()
}

#[test]
fn check_and_fk_take_documents() {
    let dir = tempfile::tempdir().expect("tmp");
    let good = write_document(dir.path(), "good.ron", "left heel");
    let bad = write_document(dir.path(), "bad.ron", "left hoof");
    let o = marionette(&["check", &good, &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains(&format!(
            "ok {good}: document on \"humanoid\", 1 locks, 0 sequences (0 keys)"
        )),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains(&format!(
            "{bad}: lock \"left foot\": goal (position): site \"left hoof\""
        )),
        "{}",
        stderr(&o)
    );
    // fk of a document: its skeleton at its pose (the root raised 10 cm).
    let doc = fk_json(&["fk", &good, "--json"]);
    let rest = fk_json(&["fk", &path("humanoid.ron"), "--json"]);
    let (p, r) = (
        point(&doc["joints"]["pelvis"]),
        point(&rest["joints"]["pelvis"]),
    );
    assert_near(p, [r[0], r[1] + 0.1, r[2]], "pelvis");
    let o = marionette(&["fk", &bad, "--json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty() && stderr(&o).contains("left hoof"));
}

/// The bench's crouch cycle (both heels locked, keys every 12 frames) of `frames` frames as a
/// document in `dir`.
fn crouch_document(dir: &Path, frames: i64) -> String {
    let file = dir.join("crouches.marionette.ron");
    marionette_bench::bake::crouch_cycle_document(frames, &skeletons().join("humanoid.ron"))
        .save(&file)
        .expect("save");
    file.display().to_string()
}

#[test]
fn bake_writes_the_frames_of_the_contract_and_holds_the_heels() {
    let dir = tempfile::tempdir().expect("tmp");
    let doc = crouch_document(dir.path(), 49);
    let out = dir.path().join("frames.json").display().to_string();
    let o = marionette(&[
        "bake",
        &doc,
        "--sequence",
        "crouches",
        "--out",
        &out,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(summary["sequence"], "crouches");
    assert_eq!(summary["frames"], 49);
    assert_eq!(summary["held"], true);
    assert!(summary["micros"].as_f64().expect("micros") > 0.0);
    let locks = summary["locks"].as_array().expect("locks");
    assert_eq!(locks.len(), 2);
    assert_eq!(locks[0]["name"], "left heel");
    assert_eq!(locks[0]["frames"], 49);
    assert!(locks[0]["max_error"].as_f64().expect("error") < 1e-4);

    let frames: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("json");
    assert_eq!(frames["sequence"], "crouches");
    assert_eq!(frames["fps"], 24.0);
    let list = frames["frames"].as_array().expect("frames");
    assert_eq!(list.len(), 49);
    for (i, f) in list.iter().enumerate() {
        assert_eq!(f["frame"], i as i64);
        assert_eq!(point(&f["pose"]["root"]).len(), 3);
        let joints = f["pose"]["joints"].as_object().expect("joints");
        assert_eq!(joints["pelvis"].as_array().expect("pelvis").len(), 3);
        assert!(joints.contains_key("left toes"), "every joint listed");
        for heel in ["left heel", "right heel"] {
            assert!(
                f["lock_errors"][heel].as_f64().expect("error") < 1e-4,
                "frame {i}"
            );
        }
    }
    // The pelvis goes down between keys: frame 12 is the crouched key, 8 cm lower.
    let y = |i: usize| point(&list[i]["pose"]["root"])[1];
    assert!((y(0) - y(12) - 0.08).abs() < 1e-12, "{} {}", y(0), y(12));

    // One thread or two: the same bytes.
    let again = dir.path().join("again.json").display().to_string();
    for threads in ["1", "2"] {
        let o = marionette(&[
            "bake",
            &doc,
            "--sequence",
            "crouches",
            "--out",
            &again,
            "--threads",
            threads,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("crouches: 49 frames"), "{}", stdout(&o));
        assert_eq!(
            std::fs::read(&again).expect("written"),
            std::fs::read(&out).expect("written"),
            "{threads} threads"
        );
    }
}

#[test]
fn bake_exit_codes_follow_the_contract() {
    let dir = tempfile::tempdir().expect("tmp");
    let doc = crouch_document(dir.path(), 25);
    let out = dir.path().join("frames.json");
    let out_text = out.display().to_string();
    // Tighter than any solve reaches: frames written, exit 3.
    let o = marionette(&[
        "bake",
        &doc,
        "--sequence",
        "crouches",
        "--out",
        &out_text,
        "--tolerance",
        "1e-15",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).contains("NOT HELD"), "{}", stdout(&o));
    assert!(out.exists());
    std::fs::remove_file(&out).expect("rm");
    // Bad input: exit 1, a message naming the culprit, nothing written.
    let with_last_key_at = |frame: &str, name: &str| {
        let text = std::fs::read_to_string(&doc).expect("the document");
        let at = text.rfind("frame: ").expect("a key");
        let end = at + text[at..].find(',').expect("the frame ends");
        let changed = format!("{}frame: {frame}{}", &text[..at], &text[end..]);
        let path = dir.path().join(name);
        std::fs::write(&path, changed).expect("write");
        path.display().to_string()
    };
    let far_doc = with_last_key_at("2000000000", "far.marionette.ron");
    let long_doc = with_last_key_at("1000000", "long.marionette.ron");
    for (args, culprit) in [
        (
            vec!["bake", &doc, "--sequence", "walk", "--out", &out_text],
            "\"walk\"",
        ),
        (
            vec![
                "bake",
                "nowhere.ron",
                "--sequence",
                "walk",
                "--out",
                &out_text,
            ],
            "nowhere.ron",
        ),
        // A key two billion frames on: refused for the sequence's length, not an abort.
        (
            vec![
                "bake",
                &far_doc,
                "--sequence",
                "crouches",
                "--out",
                &out_text,
            ],
            "sequence \"crouches\": key at frame 2000000000 is beyond",
        ),
        (
            vec![
                "bake",
                &long_doc,
                "--sequence",
                "crouches",
                "--out",
                &out_text,
            ],
            "more than 1000000 frames",
        ),
    ] {
        let o = marionette(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(culprit), "{}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
        assert!(stdout(&o).is_empty() && !out.exists(), "{args:?}");
    }
    let o = marionette(&[
        "bake",
        &doc,
        "--sequence",
        "crouches",
        "--out",
        &out_text,
        "--tolerance",
        "-1",
    ]);
    assert_eq!(o.status.code(), Some(2), "a bad option: clap's usage error");
}

const CMU: &str = "/usr/share/assimp/models/BVH/01_01.bvh";

#[test]
fn import_and_export_round_trip_a_capture_through_the_command() {
    let dir = tempfile::tempdir().expect("tmp");
    let (skeleton, doc) = (
        dir.path().join("cmu.ron"),
        dir.path().join("take.marionette.ron"),
    );
    let o = marionette(&[
        "import",
        CMU,
        "--scale",
        "0.01",
        "--every",
        "10",
        "--skeleton-out",
        &skeleton.display().to_string(),
        "--doc-out",
        &doc.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("31 joints, 2752 frames at 120.0 fps (277 keys)"),
        "{}",
        stdout(&o)
    );
    let o = marionette(&[
        "check",
        &skeleton.display().to_string(),
        &doc.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for format in ["bvh", "json"] {
        let out = dir.path().join(format!("again.{format}"));
        let o = marionette(&[
            "export",
            &doc.display().to_string(),
            "--sequence",
            "01_01",
            "--format",
            format,
            "--out",
            &out.display().to_string(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("2752 frames"), "{}", stdout(&o));
    }
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("again.json")).expect("json"),
    )
    .expect("json");
    let frame = &json["frames"][0];
    assert!(
        frame["joints_world"]["Hips"].is_array(),
        "{}",
        frame["joints_world"]
    );
    assert!(frame["sites"]["Head end"].is_array(), "{}", frame["sites"]);
    // Every tenth frame is a key: there the exported BVH is the capture (× 0.01).
    let original =
        marionette_interchange::bvh::parse::parse(&std::fs::read_to_string(CMU).expect("capture"))
            .expect("reads")
            .bvh;
    let again = marionette_interchange::bvh::parse::parse(
        &std::fs::read_to_string(dir.path().join("again.bvh")).expect("bvh"),
    )
    .expect("reads")
    .bvh;
    assert_eq!(again.frames.len(), 2752);
    for f in (0..2752).step_by(10) {
        for (a, b) in original
            .world_positions(f)
            .iter()
            .zip(&again.world_positions(f))
        {
            assert!((a * 0.01 - b).norm() < 1e-6, "frame {f}");
        }
    }
}

#[test]
fn broken_bvh_files_are_refused_with_their_line_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("tmp");
    let good = std::fs::read_to_string(CMU).expect("capture");
    let cut = &good[..good.find("MOTION").expect("motion") + 40];
    let cases: Vec<(&str, String)> = vec![
        ("empty", String::new()),
        ("truncated", good[..good.len() / 3].to_owned()),
        ("hierarchy cut", good[..2000].to_owned()),
        ("missing brace", good.replacen("{", "", 2)),
        (
            "bad number",
            good.replacen("OFFSET 0.00000 0.00000 0.00000", "OFFSET 0.0 x 0.0", 1),
        ),
        (
            "channel count",
            good.replacen("CHANNELS 3", "CHANNELS 4", 1),
        ),
        ("frames", cut.to_owned()),
        ("binary", "\u{0}\u{1}HIERARCHY\u{ff}".to_owned()),
    ];
    for (what, text) in cases {
        let file = dir.path().join(format!("{what}.bvh"));
        std::fs::write(&file, &text).expect("write");
        let (s, d) = (dir.path().join("s.ron"), dir.path().join("d.ron"));
        let o = marionette(&[
            "import",
            &file.display().to_string(),
            "--skeleton-out",
            &s.display().to_string(),
            "--doc-out",
            &d.display().to_string(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains(": line "), "{what}: no line in {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(!s.exists() && !d.exists(), "{what}: something was written");
    }
}

/// A document `figure.ron` in `dir` on the humanoid standing (arms lowered) with its root at
/// `(x, z)` across the floor.
fn standing_humanoid(dir: &Path, (x, z): (f64, f64)) -> PathBuf {
    let skeleton = path("humanoid.ron");
    let file = dir.join("figure.ron");
    let mut figure = marionette_document::DocumentFile::new(
        PathBuf::from(&skeleton),
        marionette_skeleton::Skeleton::load(&skeleton).expect("the humanoid"),
        marionette_skeleton::builtin::standing(&marionette_skeleton::builtin::humanoid()),
    );
    figure.pose.q[0] = x;
    figure.pose.q[2] = z;
    figure.save(&file).expect("saved");
    file
}

/// `retarget --where-it-stands`: the take's first frame has the figure's root over where the
/// document's pose stands and the figure faces where it faced; without it the take keeps the
/// capture's place, metres away.
#[test]
fn retarget_where_it_stands_starts_the_take_at_the_figure() {
    let dir = tempfile::tempdir().expect("tmp");
    let figure_file = standing_humanoid(dir.path(), (1.0, -0.5));
    let start = |extra: &[&str]| {
        let out = dir.path().join("take.ron");
        let mut args = vec![
            "retarget",
            CMU,
            "--onto",
            figure_file.to_str().expect("utf-8"),
            "--every",
            "8",
            "--doc-out",
            out.to_str().expect("utf-8"),
        ];
        args.extend_from_slice(extra);
        let o = marionette(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let doc = marionette_document::DocumentFile::load(&out).expect("loads");
        let (away, turned) = marionette_skeleton::testing::stance_change(
            &doc.skeleton,
            &doc.pose.q,
            &doc.sequences[0].keys[0].pose.q,
        );
        (away, turned, stdout(&o))
    };
    let (away, turned, said) = start(&["--where-it-stands"]);
    assert!(away < 0.01, "{away} m from where it stands");
    assert!(
        turned < 1f64.to_radians(),
        "turned {}°",
        turned.to_degrees()
    );
    assert!(said.contains("starts where the figure stands"), "{said}");
    let (away, _, _) = start(&[]);
    assert!(away > 1.0, "the capture's own place: {away} m away");
}

/// `retarget --onto DOCUMENT --clean-feet`: the capture goes onto the document's skeleton from
/// the document's pose (its reference), and the feet's contacts are found and locked as
/// `cleanup --sites auto` does, their slide measured here by a bake of the written document.
#[test]
fn retarget_onto_a_document_from_its_pose_and_with_its_feet_cleaned() {
    let dir = tempfile::tempdir().expect("tmp");
    // A document on the humanoid whose pose has the arms lowered (the reference the capture's
    // rest is lined up with) and the figure standing 2 m to the side.
    let target = standing_humanoid(dir.path(), (2.0, 0.0));
    let mut figure = marionette_document::DocumentFile::load(&target).expect("the figure");
    let out = dir.path().join("walk.ron");
    let (target_text, out_text) = (target.display().to_string(), out.display().to_string());
    let o = marionette(&[
        "retarget",
        CMU,
        "--onto",
        &target_text,
        "--every",
        "4",
        "--clean-feet",
        "--doc-out",
        &out_text,
    ]);
    let text = stdout(&o);
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "{text}{}",
        stderr(&o)
    );
    assert!(text.contains("contacts found"), "{text}");
    let doc = marionette_document::DocumentFile::load(&out).expect("the document loads");
    assert_eq!(doc.skeleton.name(), "humanoid");
    assert_eq!(
        doc.skeleton_path.canonicalize().ok(),
        Path::new(&path("humanoid.ron")).canonicalize().ok(),
        "on the document's skeleton"
    );
    assert_eq!(doc.pose.q, figure.pose.q, "the document's pose is kept");
    // From the pose: the same document 2 m to the other side gives the same take 4 m away.
    figure.pose.q[0] = -2.0;
    figure.save(&target).expect("saved");
    let other = dir.path().join("other.ron");
    let other_text = other.display().to_string();
    let o = marionette(&[
        "retarget",
        CMU,
        "--onto",
        &target_text,
        "--every",
        "4",
        "--doc-out",
        &other_text,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let moved = marionette_document::DocumentFile::load(&other).expect("loads");
    for (a, b) in doc.sequences[0].keys.iter().zip(&moved.sequences[0].keys) {
        assert!(
            (a.pose.q[0] - b.pose.q[0] - 4.0).abs() < 1e-9,
            "frame {}",
            a.frame
        );
        // Every value but the height, which the cleanup of the first moved (the hips lowered
        // where a leg could not reach its plant, raised where a foot went below the floor).
        let other_values = a.pose.q[2..].iter().zip(&b.pose.q[2..]);
        let worst = other_values.map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(worst < 1e-9, "frame {}: {worst}", a.frame);
    }
    assert!(moved.locks.is_empty(), "no --clean-feet, no contact locks");
    // The contacts are locked: locks named "<point> contact <first>–<last>" over frame ranges.
    let contacts: Vec<&marionette_document::Lock> = doc
        .locks
        .iter()
        .filter(|l| l.name.contains(" contact "))
        .collect();
    assert!(contacts.len() >= 4, "{} contact locks", contacts.len());
    // Baked here: a locked foot point stays within 2 mm over most of its contact.
    let sequence = &doc.sequences[0];
    let baker = marionette_motion::Baker::new(
        &doc.skeleton,
        sequence,
        &doc.locks,
        marionette_motion::BakeSettings::default(),
    );
    let frames = marionette_motion::bake_with_threads(&baker, 0, &|| {}).expect("bakes");
    let start = frames[0].frame;
    let mut fk = marionette_skeleton::Fk::new(&doc.skeleton);
    let mut held = 0;
    for lock in &contacts {
        let (first, last) = lock.frames().expect("a contact has frames");
        let mut at = |f: i64| {
            fk.update(&doc.skeleton, &frames[(f - start) as usize].q);
            lock.violation(&doc.skeleton, &fk).largest()
        };
        let worst = (first..=last).map(&mut at).fold(0.0, f64::max);
        held += usize::from(worst <= 2e-3);
    }
    assert!(
        held * 10 >= contacts.len() * 8,
        "{held} of {} contact locks held within 2 mm",
        contacts.len()
    );
}

#[test]
fn retarget_writes_the_capture_on_the_target_or_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("walk.ron");
    let out_text = out.display().to_string();
    let humanoid = path("humanoid.ron");
    let o = marionette(&[
        "retarget",
        CMU,
        "--onto",
        &humanoid,
        "--every",
        "20",
        "--doc-out",
        &out_text,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("leftLowerArm   LeftForeArm      → left elbow"),
        "{}",
        stdout(&o)
    );
    let doc = marionette_document::DocumentFile::load(&out).expect("the document loads");
    assert_eq!(doc.skeleton.name(), "humanoid");
    let keys: Vec<i64> = doc.sequences[0].keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys.first(), Some(&0));
    assert_eq!(
        keys.get(1),
        Some(&20),
        "keys keep the capture's frame numbers"
    );
    std::fs::remove_file(&out).expect("rm");
    // A map file: the head left unmapped, the left hand given; bad names refused, all at once.
    let map = dir.path().join("map.ron");
    std::fs::write(
        &map,
        "RetargetMap(bones: {\"head\": None, \"leftHand\": Some((capture: \"LeftHand\", target: \"left wrist\"))})",
    )
    .expect("write");
    let map_text = map.display().to_string();
    let o = marionette(&[
        "retarget",
        CMU,
        "--onto",
        &humanoid,
        "--every",
        "200",
        "--map",
        &map_text,
        "--doc-out",
        &out_text,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("  head "), "{}", stdout(&o));
    assert!(stdout(&o).contains("  leftHand       LeftHand         → left wrist"));
    std::fs::remove_file(&out).expect("rm");
    let bad = dir.path().join("bad.ron");
    std::fs::write(
        &bad,
        "RetargetMap(bones: {\"heed\": None, \"leftHand\": Some((capture: \"LeftPaw\", target: \"left wrist\"))})",
    )
    .expect("write");
    let bad_text = bad.display().to_string();
    let o = marionette(&[
        "retarget",
        CMU,
        "--onto",
        &humanoid,
        "--map",
        &bad_text,
        "--doc-out",
        &out_text,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("\"heed\" is not a humanoid bone"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("leftHand: the capture has no joint \"LeftPaw\""));
    assert!(!out.exists());
    // Bad input: exit 1, the culprit named, nothing written.
    let planar = path("planar6.ron");
    for (args, culprit) in [
        (
            vec!["retarget", CMU, "--onto", &planar, "--doc-out", &out_text],
            "the target is not a humanoid",
        ),
        (
            vec![
                "retarget",
                "nowhere.bvh",
                "--onto",
                &humanoid,
                "--doc-out",
                &out_text,
            ],
            "nowhere.bvh",
        ),
    ] {
        let o = marionette(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(culprit), "{}", stderr(&o));
        assert!(!out.exists(), "{args:?} wrote the document");
    }
}

/// A document on the built-in humanoid whose one sequence moves the root from (0, 0, 0) to
/// `end` over 48 frames at 24 fps, the legs still: the feet skate along with it.
fn gliding(dir: &Path, end: [f64; 3]) -> PathBuf {
    let doc = dir.join("glide.marionette.ron");
    std::fs::write(
        &doc,
        format!(
            "Document(version: 1, skeleton: {:?}, sequences: [Sequence(name: \"glide\", fps: 24.0, \
             rotation: Slerp, root: Linear, keys: [Key(frame: 0, pose: Pose(root: (0.0, 0.0, 0.0), \
             joints: {{}})), Key(frame: 48, pose: Pose(root: ({:?}, {:?}, {:?}), joints: {{}}))])])",
            path("humanoid.ron"),
            end[0],
            end[1],
            end[2]
        ),
    )
    .expect("write");
    doc
}

#[test]
fn cleanup_locks_the_feet_where_they_stand_and_says_what_it_could_not_hold() {
    let dir = tempfile::tempdir().expect("tmp");
    let doc = gliding(dir.path(), [0.0, 0.0, 0.1]);
    let out = dir.path().join("clean.ron");
    let (doc_text, out_text) = (doc.display().to_string(), out.display().to_string());
    let args = [
        "cleanup",
        &doc_text,
        "--sequence",
        "glide",
        "--doc-out",
        &out_text,
    ];
    let o = marionette(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("12 contacts found"), "{}", stdout(&o));
    let cleaned = marionette_document::DocumentFile::load(&out).expect("loads");
    assert_eq!(cleaned.locks.len(), 12);
    let heel = &cleaned.locks[0];
    assert_eq!(heel.name, "left heel contact 0–12");
    assert_eq!(heel.frames(), Some((0, 12)));
    assert!(heel.blend() >= 2, "eases in and out");
    // Baked with the locks, every contact holds (bake's own check: exit 0).
    let frames = dir.path().join("frames.json");
    let b = marionette(&[
        "bake",
        &out_text,
        "--sequence",
        "glide",
        "--out",
        &frames.display().to_string(),
    ]);
    assert_eq!(b.status.code(), Some(0), "{}", stdout(&b));
    // Again on its own output: its contact locks replaced, not doubled.
    let again = dir.path().join("again.ron");
    let again_text = again.display().to_string();
    let o = marionette(&[
        "cleanup",
        &out_text,
        "--sequence",
        "glide",
        "--doc-out",
        &again_text,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(report["replaced"], 12);
    assert_eq!(report["held"], true);
    assert_eq!(report["contacts"].as_array().map(Vec::len), Some(12));
    let c = &report["contacts"][0];
    assert!(c["slide_before_mm"].as_f64() > Some(10.0), "{c}");
    assert!(c["slide_after_mm"].as_f64() <= Some(2.0), "{c}");
    assert_eq!(
        marionette_document::DocumentFile::load(&again)
            .expect("loads")
            .locks
            .len(),
        12
    );
    // Rising 3 cm with straight legs: the planted feet are out of the legs' reach with the
    // hips where the keys put them; the hips come down (said, and written in the sequence) and
    // every contact is held.
    let rising = gliding(dir.path(), [0.0, 0.03, 0.0]);
    let risen = dir.path().join("risen.ron");
    let o = marionette(&[
        "cleanup",
        &rising.display().to_string(),
        "--sequence",
        "glide",
        "--doc-out",
        &risen.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o)
            .lines()
            .any(|l| l.contains("left heel contact") && l.contains("hips lowered up to")),
        "{}",
        stdout(&o)
    );
    let written = marionette_document::DocumentFile::load(&risen).expect("loads");
    let original = marionette_document::DocumentFile::load(&rising).expect("loads");
    let lowest_change = written.sequences[0]
        .keys
        .iter()
        .zip(&original.sequences[0].keys)
        .map(|(a, b)| a.pose.q[1] - b.pose.q[1])
        .fold(f64::INFINITY, f64::min);
    assert!(
        (-0.04..-0.01).contains(&lowest_change),
        "the hips come down about as far as the keys rose: {lowest_change}"
    );
    assert!(risen.exists());
    // Bad input: nothing written, exit 1, every unknown name said.
    let none = dir.path().join("none.ron");
    let none_text = none.display().to_string();
    for (extra, says) in [
        (
            ["--sites", "left heal,foo"],
            "no site or joint \"left heal\", \"foo\"",
        ),
        (["--sequence", "walk"], "no sequence named \"walk\""),
    ] {
        let mut argv = vec!["cleanup", &doc_text, "--doc-out", &none_text];
        if extra[0] != "--sequence" {
            argv.extend(["--sequence", "glide"]);
        }
        argv.extend(extra);
        let o = marionette(&argv);
        assert_eq!(o.status.code(), Some(1), "{argv:?}");
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert!(!none.exists());
    }
}
