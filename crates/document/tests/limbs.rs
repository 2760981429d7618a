//! A lock's limb (docs/file-formats.md, Document) on random skeletons: the lock's joint and its
//! ancestors up to, not including, the nearest ancestor with more than one child joint; with a
//! base, from the joint up to and including the base; never the root translation.

use marionette_document::{Lock, LockKind, LockPart};
use marionette_skeleton::{Fk, JointId, ROOT_STATE_LEN, testing};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_locks_limb_is_its_joint_and_the_ancestors_below_the_nearest_branch(
        (s, pose) in testing::skeleton_and_pose(),
        pick in 0usize..64,
        base_pick in 0usize..64,
    ) {
        let joint = s.joint_ids().nth(pick % s.joints().len()).expect("a joint");
        let mut fk = Fk::new(&s);
        fk.update(&s, &pose.q);
        let part = LockPart::Point(joint, nalgebra::Vector3::zeros());
        // Walk up by hand: the expected joints.
        let mut expected = vec![joint];
        let mut at = joint;
        while let Some(parent) = s.joint(at).parent {
            if s.joint(parent).children.len() > 1 {
                break;
            }
            expected.push(parent);
            at = parent;
        }
        let has_dofs = expected.iter().any(|&j| !s.joint(j).dofs.is_empty());
        match Lock::at_current(&s, &fk, "lock", part, LockKind::Position) {
            Ok(lock) => {
                prop_assert!(has_dofs);
                prop_assert!(lock.limb().columns().iter().all(|&c| c >= ROOT_STATE_LEN));
                let mut got = lock.limb().joints(&s);
                got.sort();
                let mut want: Vec<JointId> = expected
                    .iter()
                    .copied()
                    .filter(|&j| !s.joint(j).dofs.is_empty())
                    .collect();
                want.sort();
                prop_assert_eq!(got, want);
                // Held where it was made.
                prop_assert!(lock.violation(&s, &fk).within(1e-12));
                // Up to a base: every joint from the lock's up to the base, or refused when the
                // base is not above it (nothing changes then).
                let base = s.joint_ids().nth(base_pick % s.joints().len()).expect("a joint");
                let mut with_base = lock.clone();
                match with_base.set_base(&s, Some(base)) {
                    Ok(()) => {
                        prop_assert!(s.is_ancestor_or_self(base, joint));
                        let mut path: Vec<JointId> = s
                            .path_to_root(joint)
                            .take_while(|&j| j != base)
                            .chain(std::iter::once(base))
                            .filter(|&j| !s.joint(j).dofs.is_empty())
                            .collect();
                        path.sort();
                        let mut got = with_base.limb().joints(&s);
                        got.sort();
                        prop_assert_eq!(got, path);
                    }
                    Err(_) => {
                        let above = s.is_ancestor_or_self(base, joint);
                        let empty = s
                            .path_to_root(joint)
                            .take_while(|&j| j != base)
                            .chain(std::iter::once(base))
                            .all(|j| s.joint(j).dofs.is_empty());
                        prop_assert!(!above || empty);
                        prop_assert_eq!(&with_base, &lock);
                    }
                }
            }
            Err(e) => {
                prop_assert!(!has_dofs, "refused a lock that has a limb: {}", e);
            }
        }
    }
}
