//! The swivel arcs on which a limb solution respects its joint limits (Tolani, Goswami & Badler
//! 2000, §3.2.4): their ends in closed form, and the classification of each arc by the four
//! shoulder/wrist family combinations at its middle ([`crate::analytic::intervals`] has the equations).

use nalgebra::{Matrix3, Vector3};

use super::{Geometry, Limb, Swivel};
use crate::analytic::euler::AxisTriple;
use crate::analytic::ranges::{AngleRange, LimbLimits};

impl Limb {
    /// Every φ at which one of the goal's shoulder or wrist angles may cross a limit. The
    /// boundary equations are the same for both shoulder and both wrist families (they fix
    /// cos(θ₂ − ψ) and tan θ₁, tan θ₃), so one collection serves all four combinations.
    pub fn swivel_boundaries(
        &self,
        g: &Geometry,
        reference: &Vector3<f64>,
        limits: &[Option<(f64, f64)>; 7],
        out: &mut Vec<f64>,
    ) {
        use crate::analytic::intervals::TripleBoundaries;
        let m = self.shoulder_rotation(
            g,
            &Swivel {
                angle: 0.0,
                reference: *reference,
            },
        );
        let n = g.d.try_normalize(1e-12).unwrap_or_else(Vector3::x);
        out.clear();
        let [a1, _, a3] = self.shoulder_axes.axes;
        TripleBoundaries {
            axes: &self.shoulder_axes.axes,
            limits: [limits[0], limits[1], limits[2]],
            n,
            u_frame: Matrix3::identity(),
            u_m: m * a3,
            u_sign: 1.0,
            v_frame: m.transpose(),
            v_m: a1,
            v_sign: -1.0,
        }
        .collect(out);
        if let Some(r_g) = g.orientation {
            let c = self.r_a * g.r4 * self.r_b;
            let goal = g.r_pre.transpose() * r_g;
            let [c1, _, c3] = self.wrist_axes.axes;
            TripleBoundaries {
                axes: &self.wrist_axes.axes,
                limits: [limits[4], limits[5], limits[6]],
                n,
                u_frame: c.transpose() * m.transpose(),
                u_m: goal * c3,
                u_sign: -1.0,
                v_frame: goal.transpose(),
                v_m: m * c * c1,
                v_sign: 1.0,
            }
            .collect(out);
        }
    }

    /// The swivel arcs on which each shoulder/wrist family combination respects every limit
    /// (`limits.bounds[k]` for column k; `None` = unlimited): `arcs[2·shoulder + wrist]`. Ends in closed
    /// form ([`Limb::swivel_boundaries`]); each arc is classified by one solve at its middle, the
    /// shoulder rotation shared by the four combinations.
    pub fn swivel_arcs_all(
        &self,
        g: &Geometry,
        reference: &Vector3<f64>,
        limits: &LimbLimits,
        scratch: &mut Vec<f64>,
        arcs: &mut [Vec<crate::analytic::intervals::Arc>; 4],
    ) {
        if limits.bounds[3].is_some_and(|(lo, hi)| !(lo..=hi).contains(&g.theta4)) {
            for list in arcs.iter_mut() {
                list.clear();
            }
            return;
        }
        self.swivel_boundaries(g, reference, &limits.bounds, scratch);
        let classify = self.classifier(g, reference, limits);
        crate::analytic::intervals::arcs_between_masks(scratch, arcs, |phi| {
            classify.mask(phi, self, g)
        });
    }

    /// What classifying a swivel angle needs, computed once per goal geometry.
    fn classifier(
        &self,
        g: &Geometry,
        reference: &Vector3<f64>,
        limits: &LimbLimits,
    ) -> Classifier {
        let m = self.shoulder_rotation(
            g,
            &Swivel {
                angle: 0.0,
                reference: *reference,
            },
        );
        let n = g.d.try_normalize(1e-12).unwrap_or_else(Vector3::x);
        let [a1, _, a3] = self.shoulder_axes.axes;
        let wrist = g.orientation.map(|r_g| {
            let c = self.r_a * g.r4 * self.r_b;
            let goal = g.r_pre.transpose() * r_g;
            let [c1, _, c3] = self.wrist_axes.axes;
            (
                c.transpose() * m.transpose(),
                goal * c3,
                goal.transpose(),
                m * c * c1,
            )
        });
        Classifier {
            n,
            reference: *reference,
            limits: limits.bounds,
            ranges: limits.ranges,
            kept_wrist_ok: g
                .wrist_now
                .iter()
                .zip(&limits.bounds[4..])
                .all(|(v, l)| l.is_none_or(|(lo, hi)| lo <= *v && *v <= hi)),
            shoulder: self.shoulder_axes,
            wrist: self.wrist_axes,
            shoulder_u: m * a3,
            shoulder_v_frame: m.transpose(),
            shoulder_v: a1,
            wrist_vectors: wrist,
        }
    }
}

/// (Cᵀ Mᵀ, G c₃, Gᵀ, M C c₁): what the wrist's u₂ and v₂ are built from.
type WristVectors = (Matrix3<f64>, Vector3<f64>, Matrix3<f64>, Vector3<f64>);

/// Classifies swivel angles by the four family combinations with vector rotations only:
/// R1(φ) = R(n,φ)·M, so u = R(n,φ)(M a₃), v = Mᵀ R(n,−φ) a₁, and for the wrist
/// R2 = Cᵀ Mᵀ R(n,−φ) G gives u₂ and v₂ the same way.
struct Classifier {
    n: Vector3<f64>,
    reference: Vector3<f64>,
    limits: [Option<(f64, f64)>; 7],
    /// The limits as pseudo-angle ranges ([`super::ranges`]).
    ranges: [AngleRange; 7],
    /// Whether the kept wrist angles of a position goal are within their limits.
    kept_wrist_ok: bool,
    shoulder: AxisTriple,
    wrist: AxisTriple,
    shoulder_u: Vector3<f64>,
    shoulder_v_frame: Matrix3<f64>,
    shoulder_v: Vector3<f64>,
    /// (Cᵀ Mᵀ, G c₃, Gᵀ, M C c₁) for a pose goal.
    wrist_vectors: Option<WristVectors>,
}

impl Classifier {
    /// Bit 2·shoulder + wrist is set when that family combination respects every limit at φ.
    fn mask(&self, phi: f64, limb: &Limb, g: &Geometry) -> u32 {
        let (sin, cos) = phi.sin_cos();
        let n = self.n;
        let rotate =
            |v: &Vector3<f64>, s: f64| v * cos + n.cross(v) * s + n * (n.dot(v) * (1.0 - cos));
        let u = rotate(&self.shoulder_u, sin);
        let v = self.shoulder_v_frame * rotate(&self.shoulder_v, -sin);
        let wrist_uv = self
            .wrist_vectors
            .map(|(cm, gc3, gt, mcc1)| (cm * rotate(&gc3, -sin), gt * rotate(&mcc1, sin)));
        let mut mask = 0;
        for (s_index, sigma) in [(0, 1.0), (1, -1.0)] {
            let Some(shoulder_ok) = self.shoulder.within(&u, &v, sigma, &self.ranges[..3]) else {
                return self.exact_mask(phi, limb, g);
            };
            if !shoulder_ok {
                continue;
            }
            match wrist_uv {
                None => {
                    if self.kept_wrist_ok {
                        mask |= 1 << (2 * s_index);
                    }
                }
                Some((u2, v2)) => {
                    for (w_index, w_sigma) in [(0, 1.0), (1, -1.0)] {
                        let Some(wrist_ok) =
                            self.wrist.within(&u2, &v2, w_sigma, &self.ranges[4..])
                        else {
                            return self.exact_mask(phi, limb, g);
                        };
                        if wrist_ok {
                            mask |= 1 << (2 * s_index + w_index);
                        }
                    }
                }
            }
        }
        mask
    }

    /// The same by full solves, for the rare gimbal-lock swivel angles.
    fn exact_mask(&self, phi: f64, limb: &Limb, g: &Geometry) -> u32 {
        let swivel = Swivel {
            angle: phi,
            reference: self.reference,
        };
        let wrist_families = if g.orientation.is_some() { 2 } else { 1 };
        let mut mask = 0;
        for shoulder in 0..2 {
            for wrist in 0..wrist_families {
                let angles = limb.angles(g, &swivel, shoulder, wrist);
                let ok = angles
                    .iter()
                    .zip(&self.limits)
                    .all(|(v, l)| l.is_none_or(|(lo, hi)| lo <= *v && *v <= hi));
                if ok {
                    mask |= 1 << (2 * shoulder + wrist);
                }
            }
        }
        mask
    }
}
