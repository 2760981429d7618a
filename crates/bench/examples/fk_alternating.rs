//! Forward kinematics of the humanoid, alternating between two poses that differ in every DOF
//! (for profiling the per-DOF sine and cosine reuse): fk_alternating [iterations]
use std::hint::black_box;
use std::time::Instant;

use marionette_skeleton::{Fk, Pose, builtin};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000);
    let s = builtin::humanoid();
    let mut a = Pose::rest(&s);
    for (k, v) in a.q.iter_mut().enumerate().skip(3) {
        *v = 0.1 + 0.01 * (k % 13) as f64;
    }
    let mut b = a.clone();
    for v in &mut b.q[3..] {
        *v += 0.01;
    }
    let mut fk = Fk::new(&s);
    let began = Instant::now();
    for i in 0..n {
        fk.update(&s, black_box(if i % 2 == 0 { &a.q } else { &b.q }));
    }
    println!(
        "fk, every DOF changed: {:.1} ns",
        began.elapsed().as_secs_f64() * 1e9 / n as f64
    );
}
