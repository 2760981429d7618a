//! de Leva's segment inertia parameters: P. de Leva, "Adjustments to Zatsiorsky–Seluyanov's
//! segment inertia parameters", J. Biomech. 29(9):1223–1230, 1996, Table 4 (female and male
//! columns). Each segment's mass is a percentage of the body's, its centre of mass a percentage
//! of its length from its first endpoint, and its radii of gyration percentages of its length
//! about its sagittal (medio-lateral), transverse (antero-posterior) and longitudinal axes.

/// Whose proportions: de Leva's female or male column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sex {
    /// The female column.
    Female,
    /// The male column (the built-in humanoid's).
    #[default]
    Male,
}

impl Sex {
    /// "female" or "male".
    pub fn name(self) -> &'static str {
        match self {
            Sex::Female => "female",
            Sex::Male => "male",
        }
    }
}

/// A segment of de Leva's model (a limb's segments count once per side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SegmentKind {
    /// Vertex (top of the head) → cervicale (C7).
    Head,
    /// Cervicale → mid-hip (the point between the hip joints).
    Trunk,
    /// Shoulder → elbow.
    UpperArm,
    /// Elbow → wrist.
    Forearm,
    /// Wrist → third knuckle (the middle finger's base).
    Hand,
    /// Hip → knee.
    Thigh,
    /// Knee → ankle.
    Shank,
    /// Heel → toe tip.
    Foot,
}

/// One row of Table 4.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// Mass, % of the body's.
    pub mass_percent: f64,
    /// Centre of mass, % of the length from the first endpoint.
    pub com_percent: f64,
    /// Radii of gyration, % of the length: sagittal, transverse, longitudinal.
    pub gyration_percent: [f64; 3],
}

impl SegmentKind {
    /// Every kind, head to foot.
    pub const ALL: [SegmentKind; 8] = [
        SegmentKind::Head,
        SegmentKind::Trunk,
        SegmentKind::UpperArm,
        SegmentKind::Forearm,
        SegmentKind::Hand,
        SegmentKind::Thigh,
        SegmentKind::Shank,
        SegmentKind::Foot,
    ];

    /// Whether the body has two (one per side).
    pub fn paired(self) -> bool {
        !matches!(self, SegmentKind::Head | SegmentKind::Trunk)
    }

    /// What a user calls it.
    pub fn name(self) -> &'static str {
        match self {
            SegmentKind::Head => "head",
            SegmentKind::Trunk => "trunk",
            SegmentKind::UpperArm => "upper arm",
            SegmentKind::Forearm => "forearm",
            SegmentKind::Hand => "hand",
            SegmentKind::Thigh => "thigh",
            SegmentKind::Shank => "shank",
            SegmentKind::Foot => "foot",
        }
    }

    /// Its row of de Leva's Table 4 for `sex`.
    pub fn row(self, sex: Sex) -> Row {
        let female = sex == Sex::Female;
        let pick = |f: f64, m: f64| if female { f } else { m };
        let (mass, com, rg_f, rg_m) = match self {
            SegmentKind::Head => (
                pick(6.68, 6.94),
                pick(48.41, 50.02),
                [27.1, 29.5, 26.1],
                [30.3, 31.5, 26.1],
            ),
            SegmentKind::Trunk => (
                pick(42.57, 43.46),
                pick(49.64, 51.38),
                [30.7, 29.2, 14.7],
                [32.8, 30.6, 16.9],
            ),
            SegmentKind::UpperArm => (
                pick(2.55, 2.71),
                pick(57.54, 57.72),
                [27.8, 26.0, 14.8],
                [28.5, 26.9, 15.8],
            ),
            SegmentKind::Forearm => (
                pick(1.38, 1.62),
                pick(45.59, 45.74),
                [26.1, 25.7, 9.4],
                [27.6, 26.5, 12.1],
            ),
            SegmentKind::Hand => (
                pick(0.56, 0.61),
                pick(74.74, 79.00),
                [53.1, 45.4, 33.5],
                [62.8, 51.3, 40.1],
            ),
            SegmentKind::Thigh => (
                pick(14.78, 14.16),
                pick(36.12, 40.95),
                [36.9, 36.4, 16.2],
                [32.9, 32.9, 14.9],
            ),
            SegmentKind::Shank => (
                pick(4.81, 4.33),
                pick(43.52, 43.95),
                [26.7, 26.3, 9.2],
                [25.1, 24.6, 10.2],
            ),
            SegmentKind::Foot => (
                pick(1.29, 1.37),
                pick(40.14, 44.15),
                [29.9, 27.9, 13.9],
                [25.7, 24.5, 12.4],
            ),
        };
        Row {
            mass_percent: mass,
            com_percent: com,
            gyration_percent: if female { rg_f } else { rg_m },
        }
    }
}

/// The trunk's mass shares of its three parts (upper: cervicale → xiphoid, middle: xiphoid →
/// omphalion, lower: omphalion → mid-hip), % of the body's.
pub fn trunk_parts(sex: Sex) -> [f64; 3] {
    match sex {
        Sex::Female => [15.45, 14.65, 12.47],
        Sex::Male => [15.96, 16.33, 11.17],
    }
}

/// The sum of every segment's mass percentage, paired segments twice (100.00 male, 99.99
/// female: the table's rounding).
pub fn total_percent(sex: Sex) -> f64 {
    SegmentKind::ALL
        .iter()
        .map(|k| k.row(sex).mass_percent * if k.paired() { 2.0 } else { 1.0 })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_sums_as_de_leva_says() {
        assert!((total_percent(Sex::Male) - 100.0).abs() < 1e-9);
        assert!((total_percent(Sex::Female) - 99.99).abs() < 1e-9);
    }

    #[test]
    fn the_trunk_parts_make_the_trunk_within_rounding() {
        for sex in [Sex::Female, Sex::Male] {
            let parts: f64 = trunk_parts(sex).iter().sum();
            let trunk = SegmentKind::Trunk.row(sex).mass_percent;
            assert!((parts - trunk).abs() < 0.02, "{sex:?}: {parts} vs {trunk}");
        }
    }
}
