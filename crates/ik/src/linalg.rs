//! Small dense linear algebra on preallocated buffers: what the solvers need each iteration,
//! without the allocations nalgebra's decompositions make.
//!
//! - [`cholesky_solve_in_place`]: solves A·x = b for a symmetric positive definite A (DLS's
//!   (J Jᵀ + λ²I), the Lagrange system), overwriting A with its factor.
//! - [`Svd`]: one-sided Jacobi SVD (Hestenes), accurate for the small matrices of IK
//!   (at most a few dozen rows), with U, σ and V kept in reusable buffers.

use nalgebra::{DMatrix, DVector};

/// Solves `a · x = b` in place (`b` becomes x) for symmetric positive definite `a`, reading only
/// its upper triangle, which is overwritten with the Cholesky factor U (a = Uᵀ U). Column-major
/// storage makes every inner loop a contiguous dot product or axpy. Returns false, leaving `b`
/// unspecified, when `a` is not numerically positive definite.
pub fn cholesky_solve_in_place(a: &mut DMatrix<f64>, b: &mut DVector<f64>) -> bool {
    let n = a.nrows();
    cholesky_solve_slices(a.as_mut_slice(), n, b.as_mut_slice())
}

/// [`cholesky_solve_in_place`] on raw column-major storage of an n×n matrix.
pub fn cholesky_solve_slices(a: &mut [f64], n: usize, b: &mut [f64]) -> bool {
    debug_assert!(a.len() >= n * n && b.len() >= n);
    for j in 0..n {
        let (done, rest) = a.split_at_mut(j * n);
        let col_j = &mut rest[..n];
        for k in 0..j {
            let col_k = &done[k * n..k * n + k + 1];
            let s: f64 = col_k[..k].iter().zip(&col_j[..k]).map(|(x, y)| x * y).sum();
            col_j[k] = (col_j[k] - s) / col_k[k];
        }
        let d = col_j[j] - col_j[..j].iter().map(|x| x * x).sum::<f64>();
        if d <= 0.0 || !d.is_finite() {
            return false;
        }
        col_j[j] = d.sqrt();
    }
    // Uᵀ y = b
    for i in 0..n {
        let col = &a[i * n..i * n + i + 1];
        let s: f64 = col[..i].iter().zip(&b[..i]).map(|(x, y)| x * y).sum();
        b[i] = (b[i] - s) / col[i];
    }
    // U x = y, column by column
    for i in (0..n).rev() {
        let col = &a[i * n..i * n + i + 1];
        b[i] /= col[i];
        let x = b[i];
        for (bp, u) in b[..i].iter_mut().zip(&col[..i]) {
            *bp -= x * u;
        }
    }
    true
}

/// A thin SVD `J = U · diag(σ) · Vᵀ` of an m×n matrix with r = min(m, n) singular triplets,
/// computed by one-sided Jacobi rotations into buffers reused across calls.
#[derive(Debug, Clone)]
pub struct Svd {
    /// m×r left singular vectors.
    pub u: DMatrix<f64>,
    /// r singular values (not sorted).
    pub sigma: DVector<f64>,
    /// n×r right singular vectors.
    pub v: DMatrix<f64>,
    /// Working copy of the matrix being orthogonalised (columns become σᵢ·(u or v)ᵢ).
    work: DMatrix<f64>,
    /// Accumulated rotations (r×r).
    rot: DMatrix<f64>,
    /// Start each decomposition from the previous one's rotations (see [`Svd::warm_start`]).
    warm: bool,
    /// Decompositions since the rotations were last reset to the identity.
    warm_runs: u32,
    /// Two columns count as orthogonal when |cos| of their angle is below this.
    orthogonality: f64,
}

impl Svd {
    /// Buffers for m×n matrices.
    pub fn new(m: usize, n: usize) -> Svd {
        let r = m.min(n);
        let (long, _) = if m <= n { (n, m) } else { (m, n) };
        Svd {
            u: DMatrix::zeros(m, r),
            sigma: DVector::zeros(r),
            v: DMatrix::zeros(n, r),
            work: DMatrix::zeros(long, r),
            rot: DMatrix::zeros(r, r),
            warm: false,
            warm_runs: 0,
            orthogonality: 1e-15,
        }
    }

    /// Stops rotating a pair of columns once the cosine of their angle is below `cosine`
    /// (default 1e-15, full precision). A step of an iterative solver needs far less: 1e-10 puts
    /// errors of that relative size into the step, well below what the next update corrects,
    /// and saves the sweeps that only polish the last digits.
    pub fn orthogonality(mut self, cosine: f64) -> Svd {
        self.orthogonality = cosine;
        self
    }

    /// Starts every decomposition from the previous one's rotations: when the matrix changes
    /// little between calls (a Jacobian from one tracking update to the next), its columns are
    /// then almost orthogonal already and one or two sweeps finish the job, instead of six to
    /// eight. The result is the same exact SVD (the start is an orthonormal change of basis); the
    /// rotations are reset to the identity every 256 decompositions so rounding cannot build up.
    pub fn warm_start(mut self, warm: bool) -> Svd {
        self.warm = warm;
        self
    }

    /// Decomposes `j` (which must have the shape given to [`Svd::new`]).
    ///
    /// With m ≤ n the columns of Jᵀ are orthogonalised: Jᵀ·R = W, so J = R·diag(σ)·(W/σ)ᵀ and
    /// U = R, V = W/σ; otherwise the columns of J itself, giving V = R, U = W/σ.
    pub fn compute(&mut self, j: &DMatrix<f64>) {
        let (m, n) = j.shape();
        let transpose = m <= n;
        let r = m.min(n);
        let warm = self.warm && self.warm_runs > 0 && self.warm_runs < 256;
        if warm {
            self.start_from_previous(j, transpose);
        } else {
            if transpose {
                j.transpose_to(&mut self.work);
            } else {
                self.work.copy_from(j);
            }
            self.rot.fill_with_identity();
            self.warm_runs = 1;
        }
        let len = self.work.nrows();
        for _sweep in 0..60 {
            let mut rotated = false;
            for p in 0..r {
                for q in p + 1..r {
                    let (mut alpha, mut beta, mut gamma) = (0.0, 0.0, 0.0);
                    for k in 0..len {
                        let (x, y) = (self.work[(k, p)], self.work[(k, q)]);
                        alpha += x * x;
                        beta += y * y;
                        gamma += x * y;
                    }
                    if gamma.abs() <= self.orthogonality * (alpha * beta).sqrt() || gamma == 0.0 {
                        continue;
                    }
                    rotated = true;
                    let zeta = (beta - alpha) / (2.0 * gamma);
                    let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
                    let t = if zeta == 0.0 { 1.0 } else { t };
                    let c = 1.0 / (1.0 + t * t).sqrt();
                    let s = c * t;
                    for k in 0..len {
                        let (x, y) = (self.work[(k, p)], self.work[(k, q)]);
                        self.work[(k, p)] = c * x - s * y;
                        self.work[(k, q)] = s * x + c * y;
                    }
                    for k in 0..r {
                        let (x, y) = (self.rot[(k, p)], self.rot[(k, q)]);
                        self.rot[(k, p)] = c * x - s * y;
                        self.rot[(k, q)] = s * x + c * y;
                    }
                }
            }
            if !rotated {
                break;
            }
        }
        let (normalised, rotations) = if transpose {
            (&mut self.v, &mut self.u)
        } else {
            (&mut self.u, &mut self.v)
        };
        rotations.copy_from(&self.rot);
        for i in 0..r {
            let norm = self.work.column(i).norm();
            self.sigma[i] = norm;
            if norm > 0.0 {
                for k in 0..len {
                    normalised[(k, i)] = self.work[(k, i)] / norm;
                }
            } else {
                for k in 0..len {
                    normalised[(k, i)] = 0.0;
                }
            }
        }
    }

    /// Columns of Jᵀ·R (or J·R) for the previous rotations R. Kept out of line: inlined, the
    /// generic product slowed the cold path's sweeps by a third (measured on the double-Y).
    #[inline(never)]
    fn start_from_previous(&mut self, j: &DMatrix<f64>, transpose: bool) {
        if transpose {
            self.work.gemm_tr(1.0, j, &self.rot, 0.0);
        } else {
            self.work.gemm(1.0, j, &self.rot, 0.0);
        }
        self.warm_runs += 1;
    }

    /// The smallest and largest singular values.
    pub fn extremes(&self) -> (f64, f64) {
        self.sigma
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), &s| {
                (lo.min(s), hi.max(s))
            })
    }
}

/// Scales `v` so that its largest entry is at most `cap` in magnitude (keeping its direction);
/// Buss (2009, §5) and Buss & Kim clamp each update's largest joint change this way.
pub fn clamp_largest(v: &mut DVector<f64>, cap: f64) {
    let largest = v.amax();
    if largest > cap && largest.is_finite() {
        *v *= cap / largest;
    }
}

/// Whether two slices of words are equal, compared word by word: a slice or array comparison
/// becomes a call to `memcmp`, which was 7 % of a 0.3 µs limb solve in the per-step cache checks.
pub fn same_words<T>(a: &[T], b: &[T]) -> bool
where
    T: Copy + Default + PartialEq + std::ops::BitXor<Output = T> + std::ops::BitOr<Output = T>,
{
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .fold(T::default(), |acc, (&x, &y)| acc | (x ^ y))
            == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn matrix(m: usize, n: usize, values: &[f64]) -> DMatrix<f64> {
        DMatrix::from_fn(m, n, |i, j| values[(i * n + j) % values.len()])
    }

    proptest! {
        #[test]
        fn svd_reconstructs_and_is_orthonormal(m in 1usize..9, n in 1usize..9, values in prop::collection::vec(-2.0..2.0f64, 1..81)) {
            let j = matrix(m, n, &values);
            let mut svd = Svd::new(m, n);
            svd.compute(&j);
            let rebuilt = &svd.u * DMatrix::from_diagonal(&svd.sigma) * svd.v.transpose();
            prop_assert!((rebuilt - &j).abs().max() < 1e-10);
            let r = m.min(n);
            for a in 0..r {
                for b in 0..r {
                    if svd.sigma[a] > 1e-9 && svd.sigma[b] > 1e-9 {
                        let want = if a == b { 1.0 } else { 0.0 };
                        prop_assert!((svd.u.column(a).dot(&svd.u.column(b)) - want).abs() < 1e-9);
                        prop_assert!((svd.v.column(a).dot(&svd.v.column(b)) - want).abs() < 1e-9);
                    }
                }
            }
            let reference = j.clone().svd(false, false).singular_values;
            let mut ours: Vec<f64> = svd.sigma.iter().copied().collect();
            ours.sort_by(|a, b| b.total_cmp(a));
            for (a, b) in ours.iter().zip(reference.iter()) {
                prop_assert!((a - b).abs() < 1e-10);
            }
        }

        #[test]
        fn cholesky_solves_spd_systems(n in 1usize..8, values in prop::collection::vec(-2.0..2.0f64, 1..64), lambda in 0.01..1.0f64) {
            let j = matrix(n, n + 2, &values);
            let a = &j * j.transpose() + DMatrix::identity(n, n) * lambda;
            let b = DVector::from_fn(n, |i, _| i as f64 - 1.5);
            let mut factor = a.clone();
            let mut x = b.clone();
            prop_assert!(cholesky_solve_in_place(&mut factor, &mut x));
            prop_assert!((&a * x - b).norm() < 1e-8);
        }
    }

    proptest! {
        #[test]
        fn a_warm_started_svd_is_the_same_decomposition(m in 1usize..8, n in 1usize..9, values in prop::collection::vec(-2.0..2.0f64, 1..72), nudge in -0.05..0.05f64) {
            let j = matrix(m, n, &values);
            let mut warm = Svd::new(m, n).warm_start(true);
            warm.compute(&j);
            let nudged = j.map(|x| x + nudge * x.sin());
            warm.compute(&nudged);
            let rebuilt = &warm.u * DMatrix::from_diagonal(&warm.sigma) * warm.v.transpose();
            prop_assert!((rebuilt - &nudged).abs().max() < 1e-10);
            let mut cold = Svd::new(m, n);
            cold.compute(&nudged);
            let sorted = |s: &DVector<f64>| { let mut v: Vec<f64> = s.iter().copied().collect(); v.sort_by(|a, b| b.total_cmp(a)); v };
            for (a, b) in sorted(&warm.sigma).iter().zip(sorted(&cold.sigma)) {
                prop_assert!((a - b).abs() < 1e-10);
            }
        }
    }

    #[test]
    fn cholesky_rejects_indefinite_matrices() {
        let mut a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]);
        let mut b = DVector::from_vec(vec![1.0, 1.0]);
        assert!(!cholesky_solve_in_place(&mut a, &mut b));
    }
}
