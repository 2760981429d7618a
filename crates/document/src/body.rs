//! A figure's body as the physics assistant weighs it ([`Body`]): its total mass and which of
//! de Leva's columns (male or female) shares it among the segments. A setting of the figure,
//! kept in its document (`body: Some(Body(mass: 62.0, sex: Female))`); none means 75 kg, male.

use serde::{Deserialize, Serialize};

/// Which of de Leva's (1996) columns shares the mass among the segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum BodySex {
    /// The male column.
    #[default]
    Male,
    /// The female column.
    Female,
}

/// A figure's total mass and de Leva's column.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Body", deny_unknown_fields)]
pub struct Body {
    /// The total mass in kilograms: finite, above 0, at most [`Body::HEAVIEST`].
    pub mass: f64,
    /// The column.
    #[serde(default)]
    pub sex: BodySex,
}

impl Default for Body {
    fn default() -> Self {
        Body {
            mass: 75.0,
            sex: BodySex::Male,
        }
    }
}

impl Body {
    /// The heaviest body a document may give (kg): more is a typing slip.
    pub const HEAVIEST: f64 = 1000.0;

    /// What is wrong with it, if anything.
    pub fn defect(&self) -> Option<String> {
        (!(self.mass.is_finite() && self.mass > 0.0 && self.mass <= Body::HEAVIEST)).then(|| {
            format!(
                "the body's mass {} kg is not above 0 and at most {} kg",
                self.mass,
                Body::HEAVIEST
            )
        })
    }
}
