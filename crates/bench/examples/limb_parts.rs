//! Times the parts of one analytic position solve on arm7_peer in batches (no per-call timer).
use std::hint::black_box;
use std::time::Instant;

use marionette_ik::analytic::limb::{Limb, LimbGoal, Swivel};
use marionette_ik::{Goal, GoalKind, Report, Settings, SolverKind, System, solve_into};
use marionette_skeleton::{Chain, Fk, Pose, Skeleton};

fn main() {
    let s = Skeleton::load(marionette_bench::skeletons_dir().join("arm7_peer.ron")).expect("arm");
    let hand = s.site_by_name("hand").expect("hand");
    let limb = Limb::detect(&s, Chain::whole(&s, false).columns()).expect("limb");
    let mut q = Pose::rest(&s).q;
    q[6] = 0.8;
    let mut fk = Fk::new(&s);
    fk.update(&s, &q);
    let mut goal_q = q.clone();
    goal_q[3] = 0.4;
    goal_q[4] = 0.9;
    goal_q[5] = -0.3;
    goal_q[6] = 1.4;
    let mut gfk = Fk::new(&s);
    gfk.update(&s, &goal_q);
    let goal = LimbGoal {
        position: gfk.site_position(hand),
        point: s.site(hand).offset,
        orientation: None,
    };
    // `limb_parts random` skips the fixed-goal parts (for profiling the random-goal loop).
    let random_only = std::env::args().nth(1).is_some_and(|a| a == "random");
    let n = if random_only { 1 } else { 2_000_000 };
    let time = |label: &str, f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        println!(
            "{label}: {:.1} ns",
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        );
    };
    time("fk.update_transforms", &mut || {
        fk.update_transforms(&s, black_box(&q));
    });
    let sw = Swivel::default();
    time("geometry", &mut || {
        black_box(limb.geometry(&s, &fk, black_box(&q), &goal, 0));
    });
    let g = limb.geometry(&s, &fk, &q, &goal, 0);
    time("angles", &mut || {
        black_box(limb.angles(black_box(&g), &sw, 0, 0));
    });
    time("shoulder_rotation", &mut || {
        black_box(limb.shoulder_rotation(black_box(&g), &sw));
    });
    let mut system = System::new(
        &s,
        vec![Goal::new(GoalKind::Position {
            site: hand,
            target: goal.position,
        })],
        Chain::whole(&s, false),
    );
    let mut solver = SolverKind::AnalyticLimb.build();
    let mut qq = q.clone();
    time("step", &mut || {
        qq.copy_from_slice(&q);
        solver.step(&mut system, black_box(&mut qq));
    });
    if std::env::args().nth(1).is_some_and(|a| a == "step") {
        // `limb_parts step`: only the step, for profiling it.
        for _ in 0..20_000_000 {
            qq.copy_from_slice(&q);
            solver.step(&mut system, black_box(&mut qq));
        }
        return;
    }
    time("evaluate_errors", &mut || {
        system.evaluate_errors(black_box(&q));
    });
    time("supports", &mut || {
        black_box(solver.supports(&system).is_ok());
    });
    let settings = Settings {
        tolerance: 1e-10,
        max_iterations: 200,
    };
    let mut report = Report::default();
    // One whole solve from `q`, into the reused report.
    let mut solve_from_q = |system: &mut System<'_>, qq: &mut [f64]| {
        qq.copy_from_slice(&q);
        solve_into(solver.as_mut(), system, qq, settings, &mut report, |_| {});
        black_box(&report);
    };
    time("solve", &mut || solve_from_q(&mut system, &mut qq));
    // Random reachable goals back to back (no per-call timer), to compare with the per-call
    // median of `marionette bench`: the difference is what varying goals cost (branches, the
    // C library's argument-dependent paths), not the timer.
    let mut rng = marionette_skeleton::random::SplitMix64::new(3);
    let targets: Vec<_> = (0..100_000)
        .map(|_| {
            let mut g = q.clone();
            for v in &mut g[3..7] {
                *v = rng.uniform(-std::f64::consts::PI, std::f64::consts::PI);
            }
            gfk.update(&s, &g);
            gfk.site_position(hand)
        })
        .collect();
    let rounds = if random_only { 20 } else { 1 };
    let began = Instant::now();
    for target in targets.iter().cycle().take(rounds * targets.len()) {
        if let GoalKind::Position { target: t, .. } = &mut system.goals_mut()[0].kind {
            *t = *target;
        }
        solve_from_q(&mut system, &mut qq);
    }
    println!(
        "solve, random goals back to back: {:.1} ns",
        began.elapsed().as_secs_f64() * 1e9 / (rounds * targets.len()) as f64
    );
}
