//! The animator's pose tools: Pose ▸ Mirror pose, Mirror selected limb to the other side, Copy
//! pose, Paste pose, Paste flipped ([`marionette_skeleton::symmetry`]), and the pose library
//! kept in the document (save, apply with a blend to the whole figure or some joints, delete).
//! Each is one undo step; a pose edit sets the pose as a loaded pose file does (locks are not
//! re-solved: the pose is what was asked for).

use marionette_document::LibraryPose;
use marionette_skeleton::symmetry::Symmetry;
use marionette_skeleton::{JointId, Pose, ROOT_STATE_LEN, joint_rotation::JointRotations};

use crate::history::{Change, UndoStep};
use crate::{Document, EditError};

/// A copied pose ([`Document::copy_pose`]): the state, and the joints it was copied from
/// (empty: the whole figure, its root's position included). The caller keeps it (the editor's
/// clipboard); it is not the document's.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseClip {
    /// The state when copied.
    pub q: Vec<f64>,
    /// The joints copied (empty: all).
    pub joints: Vec<JointId>,
}

/// How a pose tool refused.
fn refused(what: impl Into<String>) -> EditError {
    EditError::PoseTool(what.into())
}

impl Document {
    /// The joints `joints` names, or every joint when it is empty.
    fn joints_or_all(&self, joints: &[JointId]) -> Vec<JointId> {
        if joints.is_empty() {
            self.skeleton.joint_ids().collect()
        } else {
            joints.to_vec()
        }
    }

    /// What a mirror could not make, for the status bar.
    fn off_note(&self, off: &[(JointId, f64)]) -> String {
        match off.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
            None => String::new(),
            Some((j, degrees)) => format!(
                " ({} joints could not make their mirror image, {} most: {degrees:.1}°)",
                off.len(),
                self.skeleton.joint(*j).name
            ),
        }
    }

    /// Pose ▸ Mirror pose: the whole figure mirrored across its plane of symmetry.
    pub(crate) fn mirror_pose(&mut self) -> String {
        let symmetry = Symmetry::new(&self.skeleton);
        let mirrored = symmetry.mirrored(&self.skeleton, &self.pose);
        self.end_drag();
        self.replace_pose("Mirror pose".into(), mirrored.q, UndoStep::New);
        format!("Mirrored the pose{}", self.off_note(&mirrored.off))
    }

    /// Pose ▸ Mirror selected limb to the other side: `joint` and the joints below it pose
    /// their partners as their mirror image.
    pub(crate) fn mirror_limb(&mut self, joint: JointId) -> Result<String, EditError> {
        let symmetry = Symmetry::new(&self.skeleton);
        let name = self.skeleton.joint(joint).name.clone();
        let limb: Vec<JointId> = self
            .skeleton
            .subtree(joint)
            .filter(|&j| symmetry.joint_partner(j) != j)
            .collect();
        if limb.is_empty() {
            return Err(refused(format!(
                "{name} has no other side (no joint pairs with it or the joints below it)"
            )));
        }
        let q = symmetry.paste(&self.skeleton, &self.pose, &self.pose, &limb, true);
        let other = &self.skeleton.joint(symmetry.joint_partner(limb[0])).name;
        let said = format!("Mirrored {name} onto {other}");
        self.end_drag();
        self.replace_pose(said.clone(), q, UndoStep::New);
        Ok(said)
    }

    /// Pose ▸ Copy pose: the pose of `joints` (empty: the whole figure), for the caller to keep
    /// and paste ([`crate::Edit::PastePose`]), and what to tell the user.
    pub fn copy_pose(&self, joints: &[JointId]) -> (PoseClip, String) {
        let clip = PoseClip {
            q: self.pose.clone(),
            joints: joints.to_vec(),
        };
        let said = match joints {
            [] => "Copied the pose".into(),
            [one] => format!("Copied the pose of {}", self.skeleton.joint(*one).name),
            many => format!("Copied the pose of {} joints", many.len()),
        };
        (clip, said)
    }

    /// Pose ▸ Paste pose / Paste flipped: the joints copied take their copied values, or (with
    /// `flipped`) their partners take the copied pose's mirror image.
    pub(crate) fn paste_pose(
        &mut self,
        clip: &PoseClip,
        flipped: bool,
    ) -> Result<String, EditError> {
        if clip.q.len() != self.pose.len() {
            return Err(refused(format!(
                "the pose copied is another figure's ({} values; this figure has {})",
                clip.q.len(),
                self.pose.len()
            )));
        }
        let symmetry = Symmetry::new(&self.skeleton);
        let joints = self.joints_or_all(&clip.joints);
        let q = symmetry.paste(&self.skeleton, &self.pose, &clip.q, &joints, flipped);
        let said = if flipped {
            "Paste pose flipped"
        } else {
            "Paste pose"
        };
        self.end_drag();
        self.replace_pose(said.into(), q, UndoStep::New);
        Ok(said.into())
    }

    /// The pose library.
    pub fn library(&self) -> &[LibraryPose] {
        &self.library
    }

    /// Records a change of the library as one undo step.
    fn change_library(&mut self, label: String, after: Vec<LibraryPose>) {
        let before = std::mem::replace(&mut self.library, after);
        self.history.record(Change::Library {
            label,
            before,
            after: self.library.clone(),
        });
    }

    /// Saves the current pose in the library as `name` (replacing a pose of that name).
    pub(crate) fn save_pose_to_library(&mut self, name: &str) -> Result<String, EditError> {
        let name = name.trim();
        if name.is_empty() {
            return Err(refused("a library pose needs a name"));
        }
        let mut library = self.library.clone();
        let pose = LibraryPose {
            name: name.to_owned(),
            pose: Pose {
                q: self.pose.clone(),
            },
        };
        let said = match library.iter_mut().find(|p| p.name == name) {
            Some(old) => {
                *old = pose;
                format!("Replaced {name} in the pose library")
            }
            None => {
                library.push(pose);
                format!("Saved {name} to the pose library")
            }
        };
        self.change_library(said.clone(), library);
        Ok(said)
    }

    /// Deletes the library pose `name`.
    pub(crate) fn delete_library_pose(&mut self, name: &str) -> Result<String, EditError> {
        let mut library = self.library.clone();
        let before = library.len();
        library.retain(|p| p.name != name);
        if library.len() == before {
            return Err(refused(format!("the pose library has no pose \"{name}\"")));
        }
        let said = format!("Deleted {name} from the pose library");
        self.change_library(said.clone(), library);
        Ok(said)
    }

    /// Applies the library pose `name` to `joints` (empty: the whole figure, its root's
    /// position included), `blend` of the way from the current pose (1: exactly the library's;
    /// each joint's rotation turned along the shorter arc, slides and the root moved in a
    /// line).
    pub(crate) fn apply_library_pose(
        &mut self,
        name: &str,
        blend: f64,
        joints: &[JointId],
    ) -> Result<String, EditError> {
        if !(0.0..=1.0).contains(&blend) {
            return Err(refused(format!("blend {blend} is not between 0 and 1")));
        }
        let target = self
            .library
            .iter()
            .find(|p| p.name == name)
            .ok_or_else(|| refused(format!("the pose library has no pose \"{name}\"")))?
            .pose
            .q
            .clone();
        let s = &self.skeleton;
        let rotations = JointRotations::new(s);
        let mut q = self.pose.clone();
        let all = joints.is_empty();
        for j in self.joints_or_all(joints) {
            if blend == 1.0 {
                for d in s.joint(j).dofs.clone() {
                    q[ROOT_STATE_LEN + d] = target[ROOT_STATE_LEN + d];
                }
                continue;
            }
            let (from, to) = (
                rotations.rotation(s, j, &self.pose),
                rotations.rotation(s, j, &target),
            );
            rotations.read_back(s, j, &from.slerp(&to, blend), &mut q);
            for d in s.joint(j).dofs.clone() {
                let i = ROOT_STATE_LEN + d;
                if s.dofs()[d].kind == marionette_skeleton::DofKind::Slide {
                    q[i] = self.pose[i] + blend * (target[i] - self.pose[i]);
                }
            }
        }
        if all {
            for i in 0..ROOT_STATE_LEN {
                q[i] = self.pose[i] + blend * (target[i] - self.pose[i]);
            }
        }
        let said = if blend == 1.0 {
            format!("Applied {name}")
        } else {
            format!("Applied {name} at {:.0}%", blend * 100.0)
        };
        self.end_drag();
        self.replace_pose(said.clone(), q, UndoStep::New);
        Ok(said)
    }
}

#[cfg(test)]
mod tests {
    use marionette_skeleton::builtin;

    use crate::Document;
    use crate::beside::{Beside, BesideChange, BesideOutcome};
    use crate::edit::Edit;
    use crate::solve::Solving;

    use super::*;

    /// The humanoid in a pose of its own: some DOFs a third of the way to a limit.
    fn posed() -> Document {
        let mut doc = Document::new(builtin::humanoid(), None).standing();
        let s = doc.skeleton().clone();
        let mut q = doc.pose().to_vec();
        for (k, dof) in s.dofs().iter().enumerate().step_by(3) {
            q[ROOT_STATE_LEN + k] = dof.clamp(dof.rest + (dof.max - dof.rest) / 3.0);
        }
        q[0] += 0.2;
        doc.replace_pose("pose".into(), q, UndoStep::New);
        doc
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn mirror_and_paste_flipped_are_one_undo_step_each_and_twice_give_the_pose_back() {
        let mut doc = posed();
        let mut solving = Solving::default();
        let start = doc.pose().to_vec();
        doc.apply(Edit::MirrorPose, &mut solving).expect("mirrors");
        assert!(!close(doc.pose(), &start));
        assert!(
            (doc.pose()[0] + start[0]).abs() < 1e-9,
            "the root reflected"
        );
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.pose(), start.as_slice());
        // Copy, paste flipped twice: the pose again.
        let mut beside = Beside::default();
        for _ in 0..2 {
            beside
                .take(BesideChange::CopyPose(Vec::new()), &doc)
                .expect("copies");
            let paste = beside
                .take(BesideChange::PastePose { flipped: true }, &doc)
                .expect("a paste");
            let BesideOutcome::Edit(paste) = paste else {
                panic!("a paste is an edit: {paste:?}");
            };
            doc.apply(paste, &mut solving).expect("pastes");
        }
        assert!(close(doc.pose(), &start));
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.pose(), start.as_slice(), "copy is not an undo step");
    }

    #[test]
    fn the_left_arm_copied_and_pasted_flipped_poses_the_right_arm_only() {
        let mut doc = posed();
        let mut solving = Solving::default();
        let s = doc.skeleton().clone();
        let arm: Vec<JointId> = ["left shoulder", "left elbow", "left wrist"]
            .iter()
            .map(|n| s.joint_by_name(n).expect("joint"))
            .collect();
        let start = doc.pose().to_vec();
        let (clip, said) = doc.copy_pose(&arm);
        assert_eq!(said, "Copied the pose of 3 joints");
        let paste = |flipped| Edit::PastePose {
            clip: clip.clone(),
            flipped,
        };
        doc.apply(paste(false), &mut solving).expect("pastes");
        assert_eq!(doc.pose(), start.as_slice(), "pasted where it came from");
        doc.apply(paste(true), &mut solving).expect("pastes");
        let right_elbow = s.joint_by_name("right elbow").expect("joint");
        let left_elbow = s.joint_by_name("left elbow").expect("joint");
        let value = |d: &Document, j: JointId| d.pose()[ROOT_STATE_LEN + s.joint(j).dofs.start];
        assert!((value(&doc, right_elbow) - value(&doc, left_elbow)).abs() < 1e-9);
        let pelvis = s.root();
        assert_eq!(
            value(&doc, pelvis),
            start[ROOT_STATE_LEN + s.joint(pelvis).dofs.start]
        );
        // Mirror the left leg: the right leg follows it; the pelvis has no other side.
        let hip = s.joint_by_name("left hip").expect("joint");
        doc.apply(Edit::MirrorLimb(hip), &mut solving)
            .expect("mirrors");
        let knee = |side: &str| value(&doc, s.joint_by_name(&format!("{side} knee")).expect("k"));
        assert!((knee("left") - knee("right")).abs() < 1e-9);
        let spine = s.joint_by_name("neck").expect("joint");
        assert!(doc.apply(Edit::MirrorLimb(spine), &mut solving).is_err());
        let nothing = Beside::default().take(BesideChange::PastePose { flipped: false }, &doc);
        assert!(
            nothing
                .expect_err("nothing copied")
                .to_string()
                .contains("copy a pose first")
        );
        // Another figure's pose is refused, naming why.
        let stickman = Document::new(builtin::stickman(), None);
        let (other, _) = stickman.copy_pose(&[]);
        let refused = doc.apply(
            Edit::PastePose {
                clip: other,
                flipped: false,
            },
            &mut solving,
        );
        assert!(
            refused
                .expect_err("refused")
                .to_string()
                .contains("another figure's")
        );
    }

    #[test]
    fn the_library_keeps_poses_applies_them_blended_and_saves_them_with_the_document() {
        let mut doc = posed();
        let mut solving = Solving::default();
        let posed_q = doc.pose().to_vec();
        doc.apply(Edit::SavePoseToLibrary("crouch".into()), &mut solving)
            .expect("saves");
        assert!(
            doc.apply(Edit::SavePoseToLibrary("  ".into()), &mut solving)
                .is_err()
        );
        let rest = Pose::rest(doc.skeleton()).q;
        doc.replace_pose("rest".into(), rest.clone(), UndoStep::New);
        doc.apply(
            Edit::ApplyLibraryPose {
                name: "crouch".into(),
                blend: 1.0,
                joints: Vec::new(),
            },
            &mut solving,
        )
        .expect("applies");
        assert_eq!(doc.pose(), posed_q.as_slice());
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.pose(), rest.as_slice());
        // Half way: each hinge between (a single hinge exactly half way), within limits.
        doc.apply(
            Edit::ApplyLibraryPose {
                name: "crouch".into(),
                blend: 0.5,
                joints: Vec::new(),
            },
            &mut solving,
        )
        .expect("applies");
        let s = doc.skeleton().clone();
        let knee = s.joint_by_name("left knee").expect("joint");
        let i = ROOT_STATE_LEN + s.joint(knee).dofs.start;
        assert!((doc.pose()[i] - (rest[i] + posed_q[i]) / 2.0).abs() < 1e-9);
        assert!((doc.pose()[0] - (rest[0] + posed_q[0]) / 2.0).abs() < 1e-12);
        for (k, dof) in s.dofs().iter().enumerate() {
            assert!(dof.unlimited || dof.within_limits(doc.pose()[ROOT_STATE_LEN + k]));
        }
        // Only the left knee: nothing else moves.
        doc.replace_pose("rest".into(), rest.clone(), UndoStep::New);
        doc.apply(
            Edit::ApplyLibraryPose {
                name: "crouch".into(),
                blend: 1.0,
                joints: vec![knee],
            },
            &mut solving,
        )
        .expect("applies");
        assert_ne!(posed_q[i], rest[i], "the library pose bends the knee");
        assert_eq!(
            doc.pose()[i],
            posed_q[i],
            "the left knee takes the library's value"
        );
        for (k, (a, b)) in doc.pose().iter().zip(&rest).enumerate() {
            if k != i {
                assert_eq!(a, b);
            }
        }
        // Saved and opened again: the library comes back.
        let dir = std::env::temp_dir().join(format!("marionette-library-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("lib.marionette.ron");
        doc.save_document(&path).expect("saves");
        let text = std::fs::read_to_string(&path).expect("written");
        assert!(
            text.contains("library: [") && text.contains("name: \"crouch\""),
            "{text}"
        );
        let back = Document::open_document(&path).expect("opens");
        assert_eq!(back.library(), doc.library());
        // Deleted in one step, and back with undo.
        doc.apply(Edit::DeleteLibraryPose("crouch".into()), &mut solving)
            .expect("deletes");
        assert!(doc.library().is_empty());
        doc.apply(Edit::Undo, &mut solving).expect("undo");
        assert_eq!(doc.library().len(), 1);
        std::fs::remove_dir_all(&dir).ok();
    }
}
