//! A retarget map file (docs/file-formats.md, *Retarget*): bones mapped by hand, over the map
//! found. Per humanoid bone (VRM's name), its joints in the capture and in the target, or
//! `None` to leave it unmapped:
//!
//! ```ron
//! RetargetMap(bones: {
//!     "leftHand": Some((capture: "LeftHand", target: "left hand")),
//!     "chest": None,
//! })
//! ```
//!
//! `marionette retarget --map` reads one; the editor's retarget window makes one from the rows
//! the user changed, and applies it the same way.

use std::path::Path;

use marionette_skeleton::Skeleton;
use marionette_skeleton::ordered_map::OrderedMap;

use super::MapOverride;
use crate::character::humanoid::HumanBone;

/// Bones mapped by hand: per humanoid bone (VRM's name), its joints, or `None` for unmapped.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, rename = "RetargetMap")]
pub struct RetargetMap {
    /// The bones, in file order.
    pub bones: OrderedMap<Option<MapEntry>>,
}

/// One bone's joints, by name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapEntry {
    /// The joint in the capture.
    pub capture: String,
    /// The joint in the target.
    pub target: String,
}

impl RetargetMap {
    /// Reads a map file; a defect is named with its file, line and column.
    pub fn read(path: &Path) -> Result<Self, String> {
        let file = path.display();
        let text =
            marionette_skeleton::ron_io::read_text(path).map_err(|e| format!("{file}: {e}"))?;
        marionette_skeleton::ron_io::parse(&text)
            .map_err(|e| format!("{file}:{}:{}: {}", e.line, e.col, e.message))
    }

    /// Maps `bone` to these joints (`None`: unmapped), replacing an earlier entry of it.
    pub fn set(&mut self, bone: HumanBone, joints: Option<(&str, &str)>) {
        let entry = joints.map(|(capture, target)| MapEntry {
            capture: capture.to_owned(),
            target: target.to_owned(),
        });
        let name = bone.vrm_name();
        match self.bones.0.iter_mut().find(|(k, _)| k == name) {
            Some((_, e)) => *e = entry,
            None => self.bones.0.push((name.to_owned(), entry)),
        }
    }

    /// The map as RON, as a map file holds it.
    pub fn to_ron(&self) -> Result<String, String> {
        marionette_skeleton::ron_io::to_pretty("RetargetMap", self).map_err(|e| e.to_string())
    }

    /// The overrides, every name resolved against the two skeletons; every defect named at
    /// once (a name that is no humanoid bone, a joint neither skeleton has, a bone mapped
    /// twice).
    pub fn resolve(
        &self,
        capture: &Skeleton,
        target: &Skeleton,
    ) -> Result<Vec<MapOverride>, Vec<String>> {
        let mut out = Vec::new();
        let mut defects = Vec::new();
        for (name, entry) in self.bones.iter() {
            let Some(bone) = HumanBone::from_vrm_name(name) else {
                defects.push(format!(
                    "\"{name}\" is not a humanoid bone (VRM's names: hips, leftUpperArm, …)"
                ));
                continue;
            };
            let Some(entry) = entry else {
                out.push((bone, None));
                continue;
            };
            let find = |s: &Skeleton, joint: &str, which: &str| {
                s.joint_by_name(joint)
                    .ok_or_else(|| format!("{name}: the {which} has no joint \"{joint}\""))
            };
            match (
                find(capture, &entry.capture, "capture"),
                find(target, &entry.target, "target"),
            ) {
                (Ok(c), Ok(t)) => out.push((bone, Some((c, t)))),
                (c, t) => defects.extend(c.err().into_iter().chain(t.err())),
            }
        }
        for name in self.bones.duplicate_keys() {
            defects.push(format!("{name} is mapped twice"));
        }
        if defects.is_empty() {
            Ok(out)
        } else {
            Err(defects)
        }
    }
}

#[cfg(test)]
mod tests {
    use marionette_skeleton::builtin;

    use super::*;

    #[test]
    fn a_map_round_trips_and_resolves_or_names_every_defect() {
        let humanoid = builtin::humanoid();
        let mut map = RetargetMap::default();
        map.set(HumanBone::LeftHand, Some(("left elbow", "left wrist")));
        map.set(HumanBone::Chest, None);
        map.set(HumanBone::LeftHand, Some(("left wrist", "left wrist")));
        assert_eq!(map.bones.0.len(), 2, "set replaces");
        let text = map.to_ron().expect("writes");
        let back: RetargetMap = marionette_skeleton::ron_io::parse(&text).expect("parses");
        assert_eq!(back, map);
        let resolved = map.resolve(&humanoid, &humanoid).expect("resolves");
        assert_eq!(resolved.len(), 2);
        assert_eq!(resolved[1], (HumanBone::Chest, None));
        let bad: RetargetMap = marionette_skeleton::ron_io::parse(
            r#"RetargetMap(bones: {"leftHnd": None, "chest": Some((capture: "nope", target: "pelvis")), "chest": None})"#,
        )
        .expect("parses");
        let defects = bad.resolve(&humanoid, &humanoid).expect_err("defects");
        assert_eq!(defects.len(), 3, "{defects:?}");
        assert!(defects[0].contains("leftHnd"));
        assert!(defects[1].contains("\"nope\""));
        assert!(defects[2].contains("chest is mapped twice"));
    }
}
