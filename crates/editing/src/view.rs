//! The views of the editor's window, by name: the orthographic front, side and top views and the
//! orbiting perspective one. Scripts name them (`SetView("front")`) and the editor lays them out.

use std::str::FromStr;

/// The views a replay can put in the large viewport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Orthographic, looking along −Z (the figure's front).
    Front,
    /// Orthographic, looking along −X.
    Side,
    /// Orthographic, looking down −Y.
    Top,
    /// The orbiting perspective camera.
    Perspective,
}

impl View {
    /// Every view, in the four-view layout's order.
    pub const ALL: [View; 4] = [View::Perspective, View::Front, View::Side, View::Top];

    /// The name scripts and the user interface use.
    pub fn name(self) -> &'static str {
        match self {
            View::Front => "front",
            View::Side => "side",
            View::Top => "top",
            View::Perspective => "perspective",
        }
    }
}

impl FromStr for View {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        View::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| format!("unknown view \"{s}\" (front, side, top or perspective)"))
    }
}
