//! Sequence ▸ Retarget a capture onto this figure: a BVH capture's motion put onto the
//! document's figure ([`marionette_interchange::retarget`], the figure's current pose as its
//! reference), as a new sequence named after the file and shown, in one undo step. Before it
//! runs, the editor shows the map found between the two figures ([`RetargetPlan`]); the rows
//! the user changes become a [`RetargetMap`] applied over it, as `marionette retarget --map`
//! applies a map file.

use std::path::Path;

use marionette_interchange::character::humanoid::HumanBone;
use marionette_interchange::retarget::placement::stand_where_the_figure_stands;
use marionette_interchange::retarget::{RetargetMap, map_bones, retarget_imported};

use crate::capture_read::ReadCapture;
use crate::{Document, EditError};

/// A retarget about to run: the capture, both figures' joints and, per humanoid bone, the
/// joints found and the joints chosen (indices into the joint lists).
#[derive(Debug, Clone, PartialEq)]
pub struct RetargetPlan {
    /// The capture, read.
    pub capture: ReadCapture,
    /// The capture's joints, by name.
    pub capture_joints: Vec<String>,
    /// The figure's joints, by name.
    pub target_joints: Vec<String>,
    /// One row per humanoid bone, in [`HumanBone::ALL`]'s order.
    pub rows: Vec<MapRow>,
    /// Keep the capture's own place in its room (else the take starts where the figure
    /// stands, facing where it faces).
    pub keep_place: bool,
}

/// One humanoid bone of a [`RetargetPlan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapRow {
    /// The bone.
    pub bone: HumanBone,
    /// Its (capture, figure) joints as found (`None`: not found on both).
    pub found: Option<(usize, usize)>,
    /// Its capture joint as chosen (`None`: unmapped).
    pub capture: Option<usize>,
    /// Its figure joint as chosen (`None`: unmapped).
    pub target: Option<usize>,
}

impl MapRow {
    /// The chosen joints, when both are chosen (else the bone is unmapped).
    pub fn chosen(&self) -> Option<(usize, usize)> {
        self.capture.zip(self.target)
    }

    /// Whether the choice differs from what was found.
    pub fn changed(&self) -> bool {
        self.chosen() != self.found
    }
}

impl RetargetPlan {
    /// The edit that runs the retarget with the map as chosen.
    pub fn edit(&self) -> crate::Edit {
        crate::Edit::RetargetCapture {
            capture: self.capture.clone(),
            map: self.overrides(),
            keep_place: self.keep_place,
        }
    }

    /// The rows changed from the map found, as a map applied over it.
    pub fn overrides(&self) -> RetargetMap {
        let mut map = RetargetMap::default();
        for row in self.rows.iter().filter(|r| r.changed()) {
            let joints = row.chosen().map(|(c, t)| {
                (
                    self.capture_joints[c].as_str(),
                    self.target_joints[t].as_str(),
                )
            });
            map.set(row.bone, joints);
        }
        map
    }

    /// Every row back to what was found.
    pub fn reset(&mut self) {
        for row in &mut self.rows {
            row.capture = row.found.map(|f| f.0);
            row.target = row.found.map(|f| f.1);
        }
    }

    /// Maps `bone` to these joints by name (`None`: unmapped); an unknown bone or joint is
    /// named.
    pub fn choose(&mut self, bone: &str, joints: Option<(&str, &str)>) -> Result<(), String> {
        let b = HumanBone::from_vrm_name(bone).ok_or_else(|| {
            format!("\"{bone}\" is not a humanoid bone (VRM's names: hips, leftUpperArm, …)")
        })?;
        let find = |list: &[String], name: &str, which: &str| {
            list.iter()
                .position(|n| n == name)
                .ok_or_else(|| format!("{bone}: the {which} has no joint \"{name}\""))
        };
        let chosen = match joints {
            Some((c, t)) => Some((
                find(&self.capture_joints, c, "capture")?,
                find(&self.target_joints, t, "figure")?,
            )),
            None => None,
        };
        let row = self
            .rows
            .iter_mut()
            .find(|r| r.bone == b)
            .ok_or_else(|| format!("{bone} has no row"))?;
        row.capture = chosen.map(|c| c.0);
        row.target = chosen.map(|c| c.1);
        Ok(())
    }
}

impl Document {
    /// The map a retarget of the capture at `path` would use, to be shown and changed before
    /// it runs.
    pub fn plan_retarget(&self, path: &Path) -> Result<RetargetPlan, EditError> {
        let capture = ReadCapture::read(path)?;
        let captured = &capture.imported;
        let map = map_bones(&captured.skeleton, (&self.skeleton, &self.pose), &[])
            .map_err(|e| EditError::Retarget(format!("{}: {e}", path.display())))?;
        let rows = HumanBone::ALL
            .into_iter()
            .map(|bone| {
                let found = map
                    .iter()
                    .find(|m| m.bone == bone)
                    .map(|m| (m.capture.index(), m.target.index()));
                MapRow {
                    bone,
                    found,
                    capture: found.map(|f| f.0),
                    target: found.map(|f| f.1),
                }
            })
            .collect();
        let names = |s: &marionette_skeleton::Skeleton| {
            s.joint_ids().map(|j| s.joint(j).name.clone()).collect()
        };
        Ok(RetargetPlan {
            capture: capture.clone(),
            capture_joints: names(&captured.skeleton),
            target_joints: names(&self.skeleton),
            rows,
            keep_place: false,
        })
    }

    /// Retargets the capture at `path` onto the figure as a new sequence (shown), with the bones
    /// of `map` mapped as it says over the map found; says what was mapped and what the figure's
    /// limits kept from the capture.
    pub(crate) fn retarget_capture(
        &mut self,
        capture: &ReadCapture,
        map: &RetargetMap,
        keep_place: bool,
    ) -> Result<String, EditError> {
        let file = capture.path.display().to_string();
        let fail = |e: String| EditError::Retarget(format!("{file}: {e}"));
        let (captured, stem) = (&*capture.imported, capture.name.clone());
        let overrides = map
            .resolve(&captured.skeleton, &self.skeleton)
            .map_err(|defects| fail(defects.join("; ")))?;
        let mut result =
            retarget_imported(captured, (&self.skeleton, &self.pose), &overrides, &stem)
                .map_err(|e| fail(e.to_string()))?;
        let placed = if keep_place {
            None
        } else {
            Some(
                stand_where_the_figure_stands(&self.skeleton, &self.pose, &mut result.sequence)
                    .map_err(fail)?,
            )
        };
        let name = self.unique_sequence_name(&stem);
        result.sequence.name.clone_from(&name);
        let first = result.sequence.keys.first().map_or(0, |k| k.frame);
        let keys = result.sequence.keys.len();
        let before = self.sequences.clone();
        self.sequences.push(result.sequence);
        self.record_sequences(format!("Retarget {stem}"), before);
        self.sequence = Some(self.sequences.len() - 1);
        self.go_to_frame(first);
        let limited: Vec<String> = result
            .limited
            .iter()
            .map(|(bone, _, most)| format!("{} {most:.0}°", bone.vrm_name()))
            .collect();
        let mut said = format!(
            "{stem} onto {}: {} bones mapped, {keys} frames in sequence {name}",
            self.skeleton.name(),
            result.map.len()
        );
        if let Some((turn, moved)) = placed {
            said += &format!(
                "; starts where the figure stands (the capture's place {moved:.2} m away, turned {:.0}°)",
                turn.to_degrees()
            );
        }
        if !limited.is_empty() {
            said += &format!("; held by the limits: {}", limited.join(", "));
        }
        Ok(said)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use marionette_skeleton::builtin;
    use marionette_skeleton::testing::stance_change;

    use super::*;
    use crate::Document;
    use crate::edit::{Applied, Edit};
    use crate::solve::Solving;

    fn retarget(path: &str) -> Edit {
        Edit::RetargetCapture {
            capture: ReadCapture::read(Path::new(path)).expect("reads (assimp-testmodels)"),
            map: RetargetMap::default(),
            keep_place: false,
        }
    }

    #[test]
    fn a_capture_becomes_a_shown_sequence_in_one_undo_step_and_bad_files_change_nothing() {
        let mut doc = Document::new(builtin::humanoid(), None).standing();
        let mut solving = Solving::default();
        let capture = "/usr/share/assimp/models/BVH/Boxing_Toes.bvh";
        let applied = doc
            .apply(retarget(capture), &mut solving)
            .expect("retargets (assimp-testmodels)");
        let Applied::Said(said) = applied else {
            panic!("says what it did: {applied:?}");
        };
        assert!(said.contains("bones mapped"), "{said}");
        assert_eq!(doc.sequences().len(), 1);
        assert_eq!(doc.current_sequence(), Some(0));
        assert_eq!(doc.sequences()[0].name, "Boxing_Toes");
        assert!(doc.sequences()[0].keys.len() > 1000);
        // Again: a second sequence with a name of its own.
        doc.apply(retarget(capture), &mut solving)
            .expect("retargets");
        assert_eq!(doc.sequences()[1].name, "Boxing_Toes 2");
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.sequences().len(), 1);
        // A missing file or a file that is not a capture: not read, named, nothing changed.
        for bad in [
            "/nonexistent/take.bvh",
            "/usr/share/assimp/models/BVH/../../../../etc/hostname",
        ] {
            let e = ReadCapture::read(Path::new(bad)).expect_err("refused");
            assert!(e.to_string().contains(bad), "{e}");
            assert!(doc.plan_retarget(Path::new(bad)).is_err());
            assert_eq!(doc.sequences().len(), 1);
        }
    }

    #[test]
    fn the_take_starts_where_the_figure_stands_facing_where_it_faces_unless_kept() {
        let mut doc = Document::new(builtin::humanoid(), None).standing();
        let mut solving = Solving::default();
        // The figure 1.5 m aside and 0.5 m back, turned 100° about the vertical.
        let mut placed = doc.pose().to_vec();
        placed[0] = 1.5;
        placed[2] = -0.5;
        doc.replace_pose(
            "place".into(),
            placed.clone(),
            crate::history::UndoStep::New,
        );
        let s = doc.skeleton().clone();
        let root = s.joint_ids().next().expect("a root");
        let rotations = marionette_skeleton::joint_rotation::JointRotations::new(&s);
        let turned = nalgebra::UnitQuaternion::from_axis_angle(
            &nalgebra::Vector3::y_axis(),
            100f64.to_radians(),
        ) * rotations.rotation(&s, root, &placed);
        rotations.read_back(&s, root, &turned, &mut placed);
        doc.replace_pose(
            "place".into(),
            placed.clone(),
            crate::history::UndoStep::New,
        );
        let capture = "/usr/share/assimp/models/BVH/01_01.bvh";
        let said = doc
            .apply(retarget(capture), &mut solving)
            .expect("retargets");
        let Applied::Said(said) = said else {
            panic!("{said:?}")
        };
        assert!(said.contains("starts where the figure stands"), "{said}");
        let first = &doc.sequences()[0].keys[0].pose.q;
        let (across, turn) = stance_change(&s, &placed, first);
        assert!(across < 0.01, "{across} m from where it stood");
        assert!(turn < 1f64.to_radians(), "turned {}°", turn.to_degrees());
        // Kept in the capture's place: the take's first frame is metres away.
        let mut keep = doc.plan_retarget(Path::new(capture)).expect("plans");
        keep.keep_place = true;
        doc.apply(keep.edit(), &mut solving).expect("retargets");
        let (kept, _) = stance_change(&s, &placed, &doc.sequences()[1].keys[0].pose.q);
        assert!(kept > 1.0, "the capture's own place: {kept} m away");
    }

    #[test]
    fn the_plan_shows_the_map_found_and_a_bone_changed_by_hand_moves_as_chosen() {
        let mut doc = Document::new(builtin::humanoid(), None).standing();
        let mut solving = Solving::default();
        let capture = Path::new("/usr/share/assimp/models/BVH/01_01.bvh");
        let mut plan = doc
            .plan_retarget(capture)
            .expect("plans (assimp-testmodels)");
        let row = |plan: &RetargetPlan, bone: HumanBone| {
            *plan
                .rows
                .iter()
                .find(|r| r.bone == bone)
                .expect("a row per bone")
        };
        let elbow = row(&plan, HumanBone::LeftLowerArm);
        let (c, t) = elbow.found.expect("found");
        assert_eq!(plan.capture_joints[c], "LeftForeArm");
        assert_eq!(plan.target_joints[t], "left elbow");
        assert_eq!(
            plan.overrides(),
            RetargetMap::default(),
            "nothing changed yet"
        );
        // The left forearm left unmapped: the elbow keeps the figure's pose on every frame.
        plan.choose("leftLowerArm", None).expect("a bone");
        assert!(row(&plan, HumanBone::LeftLowerArm).changed());
        assert!(
            plan.choose("leftLowerArm", Some(("nope", "left elbow")))
                .is_err()
        );
        assert!(plan.choose("leftElbow", None).is_err());
        let map = plan.overrides();
        assert_eq!(map.bones.0.len(), 1);
        let elbow_dofs: Vec<usize> = {
            let s = doc.skeleton();
            let j = s.joint_by_name("left elbow").expect("joint");
            s.joint(j)
                .dofs
                .clone()
                .map(|d| d + marionette_skeleton::ROOT_STATE_LEN)
                .collect()
        };
        let rest: Vec<f64> = elbow_dofs.iter().map(|&i| doc.pose()[i]).collect();
        doc.apply(
            Edit::RetargetCapture {
                capture: plan.capture.clone(),
                map,
                keep_place: false,
            },
            &mut solving,
        )
        .expect("retargets");
        for key in &doc.sequences()[0].keys {
            let q: Vec<f64> = elbow_dofs.iter().map(|&i| key.pose.q[i]).collect();
            assert_eq!(q, rest, "frame {}", key.frame);
        }
        // The same with the map found: the elbow bends.
        plan.reset();
        assert_eq!(plan.overrides(), RetargetMap::default());
        doc.apply(
            Edit::RetargetCapture {
                capture: plan.capture.clone(),
                map: plan.overrides(),
                keep_place: false,
            },
            &mut solving,
        )
        .expect("retargets");
        assert!(doc.sequences()[1].keys.iter().any(|k| {
            elbow_dofs
                .iter()
                .zip(&rest)
                .any(|(&i, r)| (k.pose.q[i] - r).abs() > 0.2)
        }));
    }
}
