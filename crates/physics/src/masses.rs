//! A figure's masses: de Leva's segments (1996, Table 4; [`crate::de_leva`]) placed on the
//! figure by its humanoid roles and scaled to its total mass, or, for a figure with no roles,
//! the skeleton's own per-joint masses (the capsule estimate an import writes), said so.
//!
//! Each segment rides on one joint (the head on the head, the upper arm on the shoulder, …) with
//! its centre of mass and inertia fixed in that joint's frame, measured at rest. The trunk rides
//! on the spine in de Leva's three parts (lower on the hips, middle on the spine, upper on the
//! chest), each starting at the trunk's centre of mass, so the whole trunk's centre is de Leva's
//! at rest and follows the spine when it bends.

use marionette_interchange::character::humanoid::{HumanBone, Humanoid};
use marionette_interchange::retarget::humanoid_of;
use marionette_skeleton::sides::Side;
use marionette_skeleton::{Fk, JointId, Pose, Skeleton};
use nalgebra::{Matrix3, Vector3};

use crate::de_leva::{SegmentKind, Sex, total_percent, trunk_parts};
use crate::landmarks::Figure;

/// How a figure's masses are set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassSettings {
    /// The figure's total mass, kilograms (finite, > 0).
    pub total_kg: f64,
    /// de Leva's female or male column.
    pub sex: Sex,
}

impl Default for MassSettings {
    /// 75 kg, male.
    fn default() -> Self {
        MassSettings {
            total_kg: 75.0,
            sex: Sex::Male,
        }
    }
}

/// Where the masses came from.
#[derive(Debug, Clone, PartialEq)]
pub enum MassSource {
    /// de Leva's segments, placed by the figure's humanoid roles.
    DeLeva(Sex),
    /// The skeleton's own per-joint masses (no humanoid roles: why not).
    Skeleton(String),
}

impl MassSource {
    /// `"de Leva male"`, `"de Leva female"` or `"skeleton"` (the JSON's `mass_model`).
    pub fn key(&self) -> &'static str {
        match self {
            MassSource::DeLeva(Sex::Male) => "de Leva male",
            MassSource::DeLeva(Sex::Female) => "de Leva female",
            MassSource::Skeleton(_) => "skeleton",
        }
    }
}

/// One body segment's mass, riding on a joint.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// "left thigh", "trunk (upper)", or the joint's name for the skeleton's own masses.
    pub name: String,
    /// de Leva's segment, when from the table.
    pub kind: Option<SegmentKind>,
    /// The joint it rides on.
    pub joint: JointId,
    /// Kilograms.
    pub mass: f64,
    /// Its centre of mass in the joint's frame.
    pub center: Vector3<f64>,
    /// Its inertia about its centre, in the joint's frame (kg·m²).
    pub inertia: Matrix3<f64>,
    /// Its length between de Leva's endpoints (metres; 0 for the skeleton's own masses).
    pub length: f64,
}

/// A point of the body that can rest on the floor or a prop (a heel, a toe tip, a knuckle),
/// fixed in a joint's frame.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyPoint {
    /// "left heel", "right toe tip", "left knuckle"; a joint's or site's own name for a figure
    /// with no roles.
    pub name: String,
    /// The joint it rides on.
    pub joint: JointId,
    /// Where, in the joint's frame.
    pub local: Vector3<f64>,
}

/// Why masses could not be set.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MassError {
    /// The total mass is 0, negative or not a number.
    #[error("a figure's mass must be a finite number of kilograms above 0, not {0}")]
    Total(f64),
    /// No mass anywhere (no roles and every joint's mass 0).
    #[error("skeleton \"{0}\" has no humanoid roles and no joint with a mass")]
    Massless(String),
}

/// A figure's masses.
#[derive(Debug, Clone, PartialEq)]
pub struct MassModel {
    /// Where they came from.
    pub source: MassSource,
    /// Kilograms, every segment's together.
    pub total: f64,
    /// The segments.
    pub segments: Vec<Segment>,
    /// Ends estimated rather than found, in words.
    pub notes: Vec<String>,
    /// The top of the head at rest (de Leva's vertex), when found by roles.
    pub vertex: Option<Vector3<f64>>,
    /// The points that can support the figure: each foot's heel, ball (its toes' joint, when it
    /// has one) and toe tip, each hand's knuckle, each knee and elbow, and the pelvis (by
    /// roles), else every site and every joint without children.
    pub points: Vec<BodyPoint>,
}

impl MassModel {
    /// The masses of `skeleton`: de Leva's by its humanoid roles (found at its rest pose), else
    /// its own joint masses scaled to the total.
    pub fn of(skeleton: &Skeleton, settings: MassSettings) -> Result<MassModel, MassError> {
        let total = settings.total_kg;
        if !total.is_finite() || total <= 0.0 {
            return Err(MassError::Total(total));
        }
        let rest = Pose::rest(skeleton).q;
        match humanoid_of(skeleton, &rest) {
            Ok(humanoid) => {
                let mut fk = Fk::new(skeleton);
                fk.update(skeleton, &rest);
                match de_leva_model(skeleton, &fk, &humanoid, settings) {
                    Some(model) => Ok(model),
                    None => {
                        own_masses(skeleton, total, "its trunk, limbs or head not found".into())
                    }
                }
            }
            Err(why) => own_masses(skeleton, total, why),
        }
    }

    /// The centre of mass of the figure as `fk` has it.
    pub fn center_of_mass(&self, fk: &Fk) -> Vector3<f64> {
        let sum: Vector3<f64> = self
            .segments
            .iter()
            .map(|s| fk.point(s.joint, &s.center) * s.mass)
            .sum();
        sum / self.total
    }
}

/// The points of a figure with no roles that can support it: its sites and its joints without
/// children.
fn ends_of(skeleton: &Skeleton) -> Vec<BodyPoint> {
    let sites = skeleton.site_ids().map(|id| {
        let site = skeleton.site(id);
        BodyPoint {
            name: site.name.clone(),
            joint: site.joint,
            local: site.offset,
        }
    });
    let leaves = skeleton
        .joint_ids()
        .filter(|&j| skeleton.joint(j).children.is_empty())
        .map(|j| BodyPoint {
            name: skeleton.joint(j).name.clone(),
            joint: j,
            local: Vector3::zeros(),
        });
    sites.chain(leaves).collect()
}

/// The skeleton's own joint masses, scaled so they sum to `total`.
fn own_masses(skeleton: &Skeleton, total: f64, why: String) -> Result<MassModel, MassError> {
    let own: f64 = skeleton.joints().iter().map(|j| j.mass).sum();
    if own <= 0.0 {
        return Err(MassError::Massless(skeleton.name().to_owned()));
    }
    let segments = skeleton
        .joint_ids()
        .filter(|&j| skeleton.joint(j).mass > 0.0)
        .map(|j| {
            let joint = skeleton.joint(j);
            Segment {
                name: joint.name.clone(),
                kind: None,
                joint: j,
                mass: joint.mass * total / own,
                center: joint.mass_center,
                inertia: Matrix3::zeros(),
                length: 0.0,
            }
        })
        .collect();
    Ok(MassModel {
        source: MassSource::Skeleton(why),
        total,
        segments,
        notes: Vec::new(),
        vertex: None,
        points: ends_of(skeleton),
    })
}

/// One of de Leva's segments found on the figure: its two endpoints (world, at rest) in the
/// table's order and the joint it rides on.
struct Found {
    name: String,
    kind: SegmentKind,
    from: Vector3<f64>,
    to: Vector3<f64>,
    joint: JointId,
}

/// de Leva's model on a figure with roles, or `None` when a segment's bones are missing.
fn de_leva_model(
    skeleton: &Skeleton,
    fk: &Fk,
    humanoid: &Humanoid,
    settings: MassSettings,
) -> Option<MassModel> {
    let mut figure = Figure {
        skeleton,
        fk,
        humanoid,
        notes: Vec::new(),
        points: Vec::new(),
    };
    let found = find_segments(&mut figure)?;
    let scale = settings.total_kg / total_percent(settings.sex);
    let mut segments = Vec::new();
    for f in &found {
        let row = f.kind.row(settings.sex);
        let length = (f.to - f.from).norm();
        let center = f.from + (f.to - f.from) * row.com_percent / 100.0;
        let mass = row.mass_percent * scale;
        let inertia = inertia_world(&f.from, &f.to, humanoid, mass, row.gyration_percent);
        if f.kind == SegmentKind::Trunk {
            segments.extend(trunk(&figure, f, &center, mass, &inertia, settings.sex));
            continue;
        }
        segments.push(riding(
            fk,
            f.name.clone(),
            f.kind,
            f.joint,
            mass,
            &center,
            &inertia,
            length,
        ));
    }
    let vertex = found.first().map(|head| head.from);
    let points = figure
        .points
        .iter()
        .map(|(name, joint, at)| BodyPoint {
            name: name.clone(),
            joint: *joint,
            local: fk.joint_rotation(*joint).transpose() * (at - fk.joint_position(*joint)),
        })
        .collect();
    let notes = figure.notes;
    Some(MassModel {
        source: MassSource::DeLeva(settings.sex),
        total: settings.total_kg,
        segments,
        notes,
        vertex,
        points,
    })
}

/// A segment with its centre and inertia (world, at rest) put into `joint`'s frame.
#[expect(clippy::too_many_arguments, reason = "one segment's parts, named")]
fn riding(
    fk: &Fk,
    name: String,
    kind: SegmentKind,
    joint: JointId,
    mass: f64,
    center: &Vector3<f64>,
    inertia: &Matrix3<f64>,
    length: f64,
) -> Segment {
    let r = fk.joint_rotation(joint);
    Segment {
        name,
        kind: Some(kind),
        joint,
        mass,
        center: r.transpose() * (center - fk.joint_position(joint)),
        inertia: r.transpose() * inertia * r,
        length,
    }
}

/// The trunk's three parts on the spine (lower on the hips, middle on the spine, upper on the
/// highest chest joint), each with its share of the mass and of the inertia, all centred on the
/// trunk's centre at rest. A part whose joint is missing rides on the one below.
fn trunk(
    figure: &Figure,
    found: &Found,
    center: &Vector3<f64>,
    mass: f64,
    inertia: &Matrix3<f64>,
    sex: Sex,
) -> Vec<Segment> {
    let hips = figure.joint(HumanBone::Hips).unwrap_or(found.joint);
    let spine = figure.joint(HumanBone::Spine).unwrap_or(hips);
    let chest = figure
        .joint(HumanBone::UpperChest)
        .or(figure.joint(HumanBone::Chest))
        .unwrap_or(spine);
    let parts = trunk_parts(sex);
    let parts_total: f64 = parts.iter().sum();
    let length = (found.to - found.from).norm();
    [
        ("trunk (upper)", chest, parts[0]),
        ("trunk (middle)", spine, parts[1]),
        ("trunk (lower)", hips, parts[2]),
    ]
    .into_iter()
    .map(|(name, joint, percent)| {
        // The parts share the trunk's mass as de Leva's parts do (they sum to it within
        // the table's rounding; the trunk's own mass is kept).
        let share = percent / parts_total;
        riding(
            figure.fk,
            name.into(),
            SegmentKind::Trunk,
            joint,
            mass * share,
            center,
            &(inertia * share),
            length,
        )
    })
    .collect()
}

/// A segment's inertia about its centre (world, at rest): its radii of gyration (% of its
/// length) about its sagittal (the figure's left), transverse (its forward) and longitudinal
/// (from → to) axes, the first two made square to the third.
fn inertia_world(
    from: &Vector3<f64>,
    to: &Vector3<f64>,
    humanoid: &Humanoid,
    mass: f64,
    gyration_percent: [f64; 3],
) -> Matrix3<f64> {
    let axis = to - from;
    let length = axis.norm();
    if length <= 0.0 {
        return Matrix3::zeros();
    }
    let long = axis / length;
    let mut sagittal = humanoid.left - long * humanoid.left.dot(&long);
    if sagittal.norm() < 1e-6 {
        sagittal = humanoid.forward - long * humanoid.forward.dot(&long);
    }
    let sagittal = sagittal.normalize();
    let transverse = long.cross(&sagittal);
    [sagittal, transverse, long]
        .iter()
        .zip(gyration_percent)
        .map(|(a, rg)| a * a.transpose() * mass * (rg / 100.0 * length).powi(2))
        .sum()
}

/// Every segment of de Leva's model found on the figure, or `None` when a bone is missing.
fn find_segments(figure: &mut Figure) -> Option<Vec<Found>> {
    use HumanBone as B;
    let hips_mid = (figure.at(B::LeftUpperLeg)? + figure.at(B::RightUpperLeg)?) / 2.0;
    let cervicale = figure.at(B::Neck).or(figure.at(B::Head))?;
    let trunk_length = (cervicale - hips_mid).norm();
    let vertex = figure.vertex(&cervicale, trunk_length)?;
    let mut found = vec![
        Found {
            name: "head".into(),
            kind: SegmentKind::Head,
            from: vertex,
            to: cervicale,
            joint: figure.joint(B::Head)?,
        },
        Found {
            name: "trunk".into(),
            kind: SegmentKind::Trunk,
            from: cervicale,
            to: hips_mid,
            joint: figure.joint(B::Hips)?,
        },
    ];
    for side in [Side::Left, Side::Right] {
        found.extend(limbs(figure, side)?);
    }
    // A sitting figure rests on its pelvis.
    let hips = figure.joint(B::Hips)?;
    figure
        .points
        .push(("pelvis".into(), hips, figure.fk.joint_position(hips)));
    Some(found)
}

/// One side's arm and leg segments.
fn limbs(figure: &mut Figure, side: Side) -> Option<Vec<Found>> {
    use HumanBone as B;
    let left = side == Side::Left;
    let pick = |l: HumanBone, r: HumanBone| if left { l } else { r };
    let (upper_arm, lower_arm, hand) = (
        pick(B::LeftUpperArm, B::RightUpperArm),
        pick(B::LeftLowerArm, B::RightLowerArm),
        pick(B::LeftHand, B::RightHand),
    );
    let (thigh, shank, foot) = (
        pick(B::LeftUpperLeg, B::RightUpperLeg),
        pick(B::LeftLowerLeg, B::RightLowerLeg),
        pick(B::LeftFoot, B::RightFoot),
    );
    let side_name = if left { "left" } else { "right" };
    let (shoulder, elbow, wrist) = (
        figure.at(upper_arm)?,
        figure.at(lower_arm)?,
        figure.at(hand)?,
    );
    let (hip, knee, ankle) = (figure.at(thigh)?, figure.at(shank)?, figure.at(foot)?);
    let knuckle = figure.knuckle(hand, &elbow)?;
    let (heel, toe) = figure.heel_and_toe(foot, &knee)?;
    let toes = pick(B::LeftToes, B::RightToes);
    let toe_joint = figure.joint(toes).or(figure.joint(foot))?;
    figure.points.extend([
        (format!("{side_name} heel"), figure.joint(foot)?, heel),
        (format!("{side_name} toe tip"), toe_joint, toe),
        (format!("{side_name} knuckle"), figure.joint(hand)?, knuckle),
    ]);
    // A kneeling figure rests on its knees, one on all fours on its elbows too.
    figure.points.extend([
        (format!("{side_name} knee"), figure.joint(shank)?, knee),
        (
            format!("{side_name} elbow"),
            figure.joint(lower_arm)?,
            elbow,
        ),
    ]);
    // The ball of the foot (the toes' joint): the sole's front when the toes are raised.
    if let Some(ball) = figure.joint(toes) {
        let at = figure.fk.joint_position(ball);
        figure.points.push((format!("{side_name} ball"), ball, at));
    }
    let segment = |kind: SegmentKind, from, to, bone| {
        Some(Found {
            name: format!("{side_name} {}", kind.name()),
            kind,
            from,
            to,
            joint: figure.joint(bone)?,
        })
    };
    Some(vec![
        segment(SegmentKind::UpperArm, shoulder, elbow, upper_arm)?,
        segment(SegmentKind::Forearm, elbow, wrist, lower_arm)?,
        segment(SegmentKind::Hand, wrist, knuckle, hand)?,
        segment(SegmentKind::Thigh, hip, knee, thigh)?,
        segment(SegmentKind::Shank, knee, ankle, shank)?,
        segment(SegmentKind::Foot, heel, toe, foot)?,
    ])
}
