//! Keys on one DOF and free handles (issue 34): a shoulder with one hinge keyed on its own
//! goes hinge by hinge only in the span holding that key (each hinge through its own keys,
//! linear in angle under slerp), every other span and joint bit for bit as without it; a key's
//! free handles bend only the two spans around it, into the Bézier curve an independent
//! evaluation here gives, and handles placed where the span's own tangents are change nothing;
//! the same for a handle on the root translation's height under a Catmull-Rom root.

use marionette_document::{Key, Sequence};
use marionette_motion::Interpolator;
use marionette_skeleton::{DofId, Skeleton, builtin};

/// Whole-pose keys at 0, 10, 20 and 30, the left shoulder and elbow turning.
fn sequence(s: &Skeleton) -> Sequence {
    let standing = builtin::standing(s);
    let pose = |shoulder: [f64; 3], elbow: f64| {
        let mut p = standing.clone();
        let j = s.joint_by_name("left shoulder").expect("shoulder");
        for (d, v) in s.joint_dofs(j).zip(shoulder) {
            p.q[d.state_index()] = s.dof(d).clamp(v.to_radians());
        }
        p.q[elbow_dof(s).state_index()] = elbow.to_radians();
        p
    };
    Sequence {
        name: "arm".into(),
        fps: 24.0,
        rotation: Default::default(),
        root: Default::default(),
        hold_locks: true,
        keys: vec![
            Key::new(0, pose([10.0, 5.0, 0.0], 10.0)),
            Key::new(10, pose([60.0, 30.0, -10.0], 80.0)),
            Key::new(20, pose([30.0, 10.0, 20.0], 30.0)),
            Key::new(30, pose([0.0, 0.0, 0.0], 5.0)),
        ],
    }
}

fn shoulder_dof(s: &Skeleton, i: usize) -> DofId {
    let j = s.joint_by_name("left shoulder").expect("shoulder");
    s.joint_dofs(j).nth(i).expect("DOF")
}

fn elbow_dof(s: &Skeleton) -> DofId {
    let j = s.joint_by_name("left elbow").expect("elbow");
    s.joint_dofs(j).next().expect("DOF")
}

/// The interpolated poses at frames 0 … 30.
fn frames(s: &Skeleton, seq: &Sequence) -> Vec<Vec<f64>> {
    let it = Interpolator::new(s, seq);
    (0..=30)
        .map(|f| {
            let mut q = Vec::new();
            it.pose_at(s, f, &mut q);
            q
        })
        .collect()
}

/// The cubic Bézier curve through (x, y) control points at the parameter where x = `x`, found
/// by bisection (independent of the program's Newton steps).
fn bezier_at(p: [[f64; 2]; 4], x: f64) -> f64 {
    let at = |t: f64, k: usize| {
        let s = 1.0 - t;
        s * s * s * p[0][k]
            + 3.0 * s * s * t * p[1][k]
            + 3.0 * s * t * t * p[2][k]
            + t * t * t * p[3][k]
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if at(mid, 0) < x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at(0.5 * (lo + hi), 1)
}

#[test]
fn one_shoulder_hinge_keyed_alone_goes_on_its_own_in_that_span_only() {
    let s = builtin::humanoid();
    let plain = sequence(&s);
    let mut keyed = plain.clone();
    let d = shoulder_dof(&s, 1);
    keyed
        .set_dof_key(&s, 15, d, 50f64.to_radians())
        .expect("keyed");
    let (a, b) = (frames(&s, &plain), frames(&s, &keyed));
    for f in (0..=10).chain(20..=30) {
        assert_eq!(a[f], b[f], "frame {f} changed");
    }
    let key = |f: usize| &plain.keys[f / 10].pose.q;
    let mut changed = 0;
    for f in 11..20 {
        for (i, dof) in (0..3).map(|i| (i, shoulder_dof(&s, i))) {
            let k = dof.state_index();
            // Each hinge through its own keys, linear in angle (what slerp is about one axis).
            let expected = if i == 1 {
                let (fa, va, fb, vb) = if f < 15 {
                    (10.0, key(10)[k], 15.0, 50f64.to_radians())
                } else {
                    (15.0, 50f64.to_radians(), 20.0, key(20)[k])
                };
                va + (f as f64 - fa) / (fb - fa) * (vb - va)
            } else {
                key(10)[k] + (f as f64 - 10.0) / 10.0 * (key(20)[k] - key(10)[k])
            };
            assert!(
                (b[f][k] - expected).abs() < 1e-12,
                "frame {f} DOF {i}: {} vs {expected}",
                b[f][k]
            );
        }
        changed += usize::from(a[f] != b[f]);
        // Every other state (other joints, the root) as without the key.
        for k in 0..a[f].len() {
            if !(0..3).any(|i| shoulder_dof(&s, i).state_index() == k) {
                assert_eq!(a[f][k], b[f][k], "frame {f} state {k}");
            }
        }
    }
    assert_eq!(changed, 9);
}

#[test]
fn free_handles_bend_only_the_two_spans_around_their_key() {
    let s = builtin::humanoid();
    let plain = sequence(&s);
    let k = elbow_dof(&s).state_index();
    let (before, after) = ([-4.0, -0.3], [2.0, 0.5]);
    let mut bent = plain.clone();
    bent.set_key_handles(&s, 10, elbow_dof(&s).state_index(), Some((before, after)))
        .expect("handles");
    let (a, b) = (frames(&s, &plain), frames(&s, &bent));
    for f in 20..=30 {
        assert_eq!(a[f], b[f], "frame {f} changed");
    }
    let v = |f: usize| plain.keys[f / 10].pose.q[k];
    for f in 1..20 {
        // The neighbours' sides are the linear span's own: a third of the way along the line.
        let (p0, p3) = if f < 10 {
            ([0.0, v(0)], [10.0, v(10)])
        } else {
            ([10.0, v(10)], [20.0, v(20)])
        };
        let control = if f < 10 {
            let third = [p0[0] + 10.0 / 3.0, p0[1] + (p3[1] - p0[1]) / 3.0];
            [p0, third, [p3[0] + before[0], p3[1] + before[1]], p3]
        } else {
            let third = [p3[0] - 10.0 / 3.0, p3[1] - (p3[1] - p0[1]) / 3.0];
            [p0, [p0[0] + after[0], p0[1] + after[1]], third, p3]
        };
        let expected = s.dof(elbow_dof(&s)).clamp(bezier_at(control, f as f64));
        assert!(
            (b[f][k] - expected).abs() < 1e-9,
            "frame {f}: {} vs {expected}",
            b[f][k]
        );
        if f != 10 {
            assert_ne!(a[f][k], b[f][k], "frame {f} unchanged");
        }
        for other in (0..a[f].len()).filter(|&o| o != k) {
            assert_eq!(a[f][other], b[f][other], "frame {f} state {other}");
        }
    }
}

#[test]
fn handles_where_the_spans_own_tangents_are_change_nothing() {
    let s = builtin::humanoid();
    let plain = sequence(&s);
    let mut same = plain.clone();
    // Under slerp each single hinge's span is a line: handles a third of the way along it.
    let k = elbow_dof(&s).state_index();
    let v = |i: usize| plain.keys[i].pose.q[k];
    let (into, out) = ((v(1) - v(0)) / 3.0, (v(2) - v(1)) / 3.0);
    same.set_key_handles(
        &s,
        10,
        elbow_dof(&s).state_index(),
        Some(([-10.0 / 3.0, -into], [10.0 / 3.0, out])),
    )
    .expect("handles");
    let (a, b) = (frames(&s, &plain), frames(&s, &same));
    for f in 0..=30 {
        assert!(
            (a[f][k] - b[f][k]).abs() < 1e-12,
            "frame {f}: {} vs {}",
            a[f][k],
            b[f][k]
        );
    }
}

#[test]
fn the_handles_drawn_for_a_curve_are_the_ones_it_goes_by() {
    // Under squad, on a single hinge and on one hinge of the shoulder: the handles the curve
    // editor draws, made free as they are, leave every frame where it was.
    let s = builtin::humanoid();
    let mut plain = sequence(&s);
    plain.rotation = marionette_document::RotationInterpolation::Squad;
    for dof in [elbow_dof(&s), shoulder_dof(&s, 2)] {
        let handles = marionette_motion::curve_handles(
            &s,
            &plain,
            &Interpolator::new(&s, &plain),
            dof.state_index(),
        );
        assert_eq!(handles.len(), 4);
        assert!(handles.iter().all(|h| !h.free));
        let mut same = plain.clone();
        // The shoulder's first hinge keyed apart in every span, so that its other hinges go
        // on their own everywhere (as they do once they have handles).
        if dof != elbow_dof(&s) {
            let first = shoulder_dof(&s, 0);
            for f in [5, 15, 25] {
                let v = plain.keys[(f / 10) as usize].pose.q[first.state_index()];
                same.set_dof_key(&s, f, first, v).expect("keyed");
            }
            plain = same.clone();
        }
        let handles = marionette_motion::curve_handles(
            &s,
            &plain,
            &Interpolator::new(&s, &plain),
            dof.state_index(),
        );
        assert_eq!(handles.len(), 4);
        for h in &handles[1..3] {
            same.set_key_handles(&s, h.frame, dof.state_index(), Some((h.before, h.after)))
                .expect("handles");
        }
        let (a, b) = (frames(&s, &plain), frames(&s, &same));
        let k = dof.state_index();
        for f in 0..=30 {
            assert!(
                (a[f][k] - b[f][k]).abs() < 1e-12,
                "DOF {k} frame {f}: {} vs {}",
                a[f][k],
                b[f][k]
            );
        }
        let drawn = marionette_motion::curve_handles(
            &s,
            &same,
            &Interpolator::new(&s, &same),
            dof.state_index(),
        );
        assert!(drawn[1].free && drawn[2].free && !drawn[0].free);
    }
}

#[test]
fn a_root_handle_bends_only_its_coordinate_in_the_two_spans() {
    let s = builtin::humanoid();
    let mut plain = sequence(&s);
    plain.root = marionette_document::RootInterpolation::CatmullRom;
    let heights = [0.0, -0.1, 0.02, -0.05];
    for (k, y) in plain.keys.iter_mut().zip(heights) {
        k.pose.q[1] = y;
        k.pose.q[0] = 0.01 * k.frame as f64;
    }
    let (before, after) = ([-2.0, 0.04], [4.0, -0.03]);
    let mut bent = plain.clone();
    bent.set_key_handles(&s, 10, 1, Some((before, after)))
        .expect("handles on root y");
    let (a, b) = (frames(&s, &plain), frames(&s, &bent));
    for f in (0..=0).chain(20..=30) {
        assert_eq!(a[f], b[f], "frame {f} changed");
    }
    // Catmull-Rom's tangent at key i: (p[i+1] − p[i−1]) / 2 per span, the ends repeated.
    let p = |i: i64| heights[i.clamp(0, 3) as usize];
    let tangent = |i: i64| (p(i + 1) - p(i - 1)) / 2.0;
    for f in 1..20 {
        let control = if f < 10 {
            [
                [0.0, p(0)],
                [10.0 / 3.0, p(0) + tangent(0) / 3.0],
                [10.0 + before[0], p(1) + before[1]],
                [10.0, p(1)],
            ]
        } else {
            [
                [10.0, p(1)],
                [10.0 + after[0], p(1) + after[1]],
                [20.0 - 10.0 / 3.0, p(2) - tangent(2) / 3.0],
                [20.0, p(2)],
            ]
        };
        let expected = bezier_at(control, f as f64);
        assert!(
            (b[f][1] - expected).abs() < 1e-9,
            "frame {f}: {} vs {expected}",
            b[f][1]
        );
        for other in (0..a[f].len()).filter(|&o| o != 1) {
            assert_eq!(a[f][other], b[f][other], "frame {f} state {other}");
        }
    }
    // The handles drawn for the root's height, made free as they are, change nothing.
    let drawn = marionette_motion::curve_handles(&s, &plain, &Interpolator::new(&s, &plain), 1);
    let mut same = plain.clone();
    for h in &drawn[1..3] {
        same.set_key_handles(&s, h.frame, 1, Some((h.before, h.after)))
            .expect("handles");
    }
    let c = frames(&s, &same);
    for f in 0..=30 {
        assert!(
            (a[f][1] - c[f][1]).abs() < 1e-12,
            "frame {f}: {} vs {}",
            a[f][1],
            c[f][1]
        );
    }
}
