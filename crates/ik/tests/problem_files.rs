//! Problem files are user input: mutated and truncated copies never panic the loader, and every
//! error comes with a message (naming the problem file, or the skeleton or pose file it points to).

use marionette_ik::Problem;
use proptest::prelude::*;

const GOOD: &str = r#"Problem(
    skeleton: "SKELETON",
    base: Some("right shoulder"),
    move_root: false,
    frozen: ["left hip"],
    goals: [
        Position(site: "right fingertips", target: (-0.3, 1.2, 0.35), weight: 2.0),
        Orientation(joint: "right wrist", target: (10.0, 20.0, 30.0), axes: [Y]),
        Aim(site: "right fingertips", axis: (0.0, -1.0, 0.0), at: (0.0, 0.0, 1.0), priority: 1),
        Plane(site: "right fingertips", point: (0.0, 1.0, 0.0), normal: (0.0, 1.0, 0.0)),
        Line(site: "right fingertips", point: (0.0, 1.0, 0.0), direction: (1.0, 0.0, 0.0)),
        CenterOfMass(target: (0.0, 0.0, 0.1), axes: [X, Z]),
    ],
)
"#;

fn good_text() -> String {
    let skeleton = marionette_skeleton::testing::skeletons_dir().join("humanoid.ron");
    GOOD.replace("SKELETON", &skeleton.display().to_string())
}

fn load(text: &str) -> Result<Problem, String> {
    let dir = std::env::temp_dir().join(format!("marionette-problem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(format!("p{}.ron", text.len()));
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    let result = Problem::load(&path).map_err(|e| {
        let message = e.to_string();
        assert!(!message.trim().is_empty(), "every error has a message");
        message
    });
    let _ = std::fs::remove_file(&path);
    result
}

#[test]
fn the_base_problem_loads() {
    let problem = load(&good_text()).expect("valid");
    assert_eq!(problem.goals.len(), 6);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn mutated_problem_files_never_panic(cut in any::<usize>(), insert in any::<usize>(), token in 0usize..12) {
        const TOKENS: [&str; 12] = ["(", ")", "[", "]", ",", "NaN", "-inf", "\"", "weight: -1", "Some(", "axes: []", "0"];
        let mut text = good_text();
        let at = |s: &str, i: usize| { let mut i = i % (s.len() + 1); while !s.is_char_boundary(i) { i -= 1; } i };
        let i = at(&text, insert);
        text.insert_str(i, TOKENS[token]);
        let c = at(&text, cut);
        if cut % 3 == 0 {
            text.truncate(c);
        }
        let _ = load(&text);
    }
}
