//! Issue 32's stage protocol: baking 1, 2, 4 and 8 figures together. Each figure is the
//! humanoid's crouch cycle ([`crate::bake::crouch_cycle`]: both heels position-locked on every
//! frame, the pelvis moving through keys); figures stand in pairs facing each other a metre apart,
//! and each pair holds right hand to left hand by a link on every frame. Every frame bakes each
//! figure, then solves each pair's link with the pair's locks ([`StageBaker`]), on one thread, so
//! the time is the work: it should grow with the number of figures, not faster.

use std::time::Instant;

use marionette_document::{Link, LinkTarget, Placement, SiteRef, Stage, StageFigure};
use marionette_motion::BakeSettings;
use marionette_motion::stage::{StageBaker, StageSummary};

use crate::table::Table;

/// A stage of `figures` crouching humanoids over `frames` frames, in facing pairs linked hand
/// to hand (an odd last figure stands alone).
pub fn crouching_pairs(figures: usize, frames: i64) -> Stage {
    let path = crate::skeletons_dir().join("humanoid.ron");
    let mut stage = Stage {
        figures: Vec::new(),
        props: Vec::new(),
        links: Vec::new(),
        cues: Vec::new(),
    };
    for i in 0..figures {
        let mut document = crate::bake::crouch_cycle_document(frames, &path);
        // The linked arm reaches forward in every key (the link then only closes the gap).
        let s = document.skeleton.clone();
        let (shoulder, elbow) = if i % 2 == 0 {
            ("right shoulder", "right elbow")
        } else {
            ("left shoulder", "left elbow")
        };
        let dof = |joint: &str| {
            s.joint_dofs(s.joint_by_name(joint).expect("joint"))
                .next()
                .expect("dof")
                .state_index()
        };
        for key in &mut document.sequences[0].keys {
            key.pose.q[dof(shoulder)] = 50f64.to_radians();
            key.pose.q[dof(elbow)] = 30f64.to_radians();
        }
        let pair = (i / 2) as f64;
        stage.figures.push(StageFigure {
            name: format!("dancer {}", i + 1),
            placement: if i % 2 == 0 {
                Placement {
                    at: [2.0 * pair, 0.0],
                    facing: 0.0,
                }
            } else {
                Placement {
                    at: [2.0 * pair, 1.0],
                    facing: 180.0,
                }
            },
            document,
        });
        if i % 2 == 1 {
            let site = |f: usize, name: &str| SiteRef {
                figure: f,
                site: s.site_by_name(name).expect("site"),
            };
            stage.links.push(Link {
                name: format!("pair {} hands", i / 2 + 1),
                a: site(i - 1, "right fingertips"),
                b: LinkTarget::Site(site(i, "left fingertips")),
                enabled: true,
                frames: None,
            });
        }
    }
    solve_keys(&mut stage);
    stage
}

/// Each key made as the editor makes it with the links in place: the pose the bake gives on the
/// key's frame (its locks and links held) becomes the key.
fn solve_keys(stage: &mut Stage) {
    let baked = StageBaker::new(stage, "crouches", BakeSettings::default())
        .expect("baker")
        .bake(&|| {});
    let first = baked.frames[0].frame;
    for (f, figure) in stage.figures.iter_mut().enumerate() {
        for key in &mut figure.document.sequences[0].keys {
            key.pose.q = baked.frames[(key.frame - first) as usize].figures[f]
                .q
                .clone();
        }
    }
}

/// The stage table: `frames` frames, best of `runs` bakes, one thread.
pub fn table(frames: i64, runs: usize) -> Table {
    let mut table = Table::new(
        format!(
            "Stage bake ({frames} frames; each figure the humanoid's crouch cycle with both heels position-locked; figures in facing pairs, each pair hand in hand by a link on every frame): best of {runs}, one thread"
        ),
        &[
            "figures",
            "links",
            "ms",
            "µs/frame",
            "× one figure (best)",
            "× one figure (median of runs)",
            "largest heel error (m)",
            "largest link error (m)",
        ],
    );
    const COUNTS: [usize; 4] = [1, 2, 4, 8];
    let stages: Vec<Stage> = COUNTS.iter().map(|&n| crouching_pairs(n, frames)).collect();
    let bakers: Vec<StageBaker> = stages
        .iter()
        .map(|s| StageBaker::new(s, "crouches", BakeSettings::default()).expect("baker"))
        .collect();
    // One unmeasured bake each, then the runs taken in turns (1, 2, 4, 8 figures, again…): a
    // slower spell of a shared machine falls on every row alike.
    let mut baked: Vec<_> = bakers
        .iter()
        .map(|b| b.bake_with_threads(1, &|| {}).expect("pool"))
        .collect();
    let mut best = [f64::INFINITY; 4];
    // Per run, each count's time over one figure's in the same run: their median is the ratio
    // least moved by a burst of another tenant's load on a shared machine.
    let mut ratios: [Vec<f64>; 4] = Default::default();
    for _ in 0..runs {
        let mut times = [0.0; 4];
        for (k, baker) in bakers.iter().enumerate() {
            let began = Instant::now();
            baked[k] = baker.bake_with_threads(1, &|| {}).expect("pool");
            times[k] = began.elapsed().as_secs_f64();
            best[k] = best[k].min(times[k]);
        }
        for k in 0..4 {
            ratios[k].push(times[k] / times[0]);
        }
    }
    for (k, figures) in COUNTS.into_iter().enumerate() {
        let summary = StageSummary::of(&stages[k], &baked[k]);
        let heel = summary.locks.iter().map(|l| l.3).fold(0.0, f64::max);
        let link = summary.links.iter().map(|l| l.2).fold(0.0, f64::max);
        table.row(vec![
            figures.to_string(),
            stages[k].links.len().to_string(),
            format!("{:.1}", best[k] * 1e3),
            format!("{:.1}", best[k] * 1e6 / frames as f64),
            format!("{:.2}", best[k] / best[0]),
            format!("{:.2}", crate::table::median(&mut ratios[k])),
            format!("{heel:.1e}"),
            format!("{link:.1e}"),
        ]);
    }
    table.note("best: each count's fastest run over one figure's fastest; median of runs: the median over the runs of each run's time over one figure's in the same run (runs taken in turns: 1, 2, 4, 8 figures, again)");
    table.note("issue 32's target: the cost grows no faster than the number of figures (8 figures ≤ 9× one)");
    table
}
