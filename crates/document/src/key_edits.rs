//! Edits of a sequence's keys, as the timeline makes them: set, delete and move a key; copy,
//! cut, paste, insert, delete, retime and slide a range of frames. Each edit either succeeds
//! with the keys still strictly increasing and at least one left, or fails with an error naming
//! the sequence and the frames at fault, leaving the sequence as it was. No edit takes a key
//! beyond ±[`MAX_FRAME`] or makes the keys span more than [`MAX_SPAN`] frames.

use marionette_skeleton::Pose;

use crate::sequence::{Key, MAX_FRAME, MAX_SPAN, Sequence};

/// A refused key edit; the sequence did not change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyEditError {
    /// No key at that frame.
    #[error("sequence \"{sequence}\" has no key at frame {frame}")]
    NoKey {
        /// The sequence.
        sequence: String,
        /// The frame.
        frame: i64,
    },
    /// The edit would leave the sequence without keys.
    #[error(
        "sequence \"{sequence}\" must keep at least one key (delete the sequence to remove them all)"
    )]
    LastKey {
        /// The sequence.
        sequence: String,
    },
    /// An ease outside 0 … 1.
    #[error("sequence \"{sequence}\": ease {ease} is not between 0 and 1")]
    Ease {
        /// The sequence.
        sequence: String,
        /// The ease asked for.
        ease: String,
    },
    /// A key would land where another key is.
    #[error("sequence \"{sequence}\": frame {frame} already has a key")]
    Occupied {
        /// The sequence.
        sequence: String,
        /// The frame.
        frame: i64,
    },
    /// The keys would span more frames than a sequence may, or reach beyond the largest frame
    /// number.
    #[error(
        "sequence \"{sequence}\": keys at frames {first}–{last} would span more than {MAX_SPAN} frames or pass ±{MAX_FRAME}"
    )]
    TooLong {
        /// The sequence.
        sequence: String,
        /// The first key's frame after the edit.
        first: i64,
        /// The last key's frame after the edit.
        last: i64,
    },
    /// A range whose last frame is before its first, or an empty length.
    #[error("sequence \"{sequence}\": {what}")]
    BadRange {
        /// The sequence.
        sequence: String,
        /// What is wrong.
        what: String,
    },
}

/// Frames copied from a sequence: its length and the keys in it, at frames relative to its
/// first frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Clip {
    /// Frames the clip spans (≥ 1).
    pub length: i64,
    /// Keys, frame 0 being the clip's first frame.
    pub keys: Vec<Key>,
}

impl Sequence {
    /// The key at `frame`, if any.
    pub fn key_at(&self, frame: i64) -> Option<&Key> {
        self.keys
            .binary_search_by_key(&frame, |k| k.frame)
            .ok()
            .map(|i| &self.keys[i])
    }

    /// Sets how the span after the key at `frame` goes (`None`: as the sequence says) and its
    /// ease (0 … 1).
    pub fn set_key_interpolation(
        &mut self,
        frame: i64,
        interpolation: Option<crate::KeyInterpolation>,
        ease: f64,
    ) -> Result<(), KeyEditError> {
        if !(ease.is_finite() && (0.0..=1.0).contains(&ease)) {
            return Err(KeyEditError::Ease {
                sequence: self.name.clone(),
                ease: ease.to_string(),
            });
        }
        let i = self.index_of(frame)?;
        self.keys[i].interpolation = interpolation;
        self.keys[i].ease = ease;
        Ok(())
    }

    /// Sets the key at `frame` to `pose`, a whole-pose key (replacing a key there, whatever
    /// parts it held).
    pub fn set_key(&mut self, frame: i64, pose: Pose) -> Result<(), KeyEditError> {
        let (first, last) = match (self.keys.first(), self.keys.last()) {
            (Some(a), Some(b)) => (a.frame.min(frame), b.frame.max(frame)),
            _ => (frame, frame),
        };
        self.check_limits(first, last)?;
        match self.keys.binary_search_by_key(&frame, |k| k.frame) {
            Ok(i) => {
                self.keys[i].pose = pose;
                self.keys[i].only = None;
            }
            Err(i) => self.keys.insert(i, Key::new(frame, pose)),
        }
        Ok(())
    }

    /// Deletes the key at `frame`.
    pub fn delete_key(&mut self, frame: i64) -> Result<(), KeyEditError> {
        let i = self.index_of(frame)?;
        if self.keys.len() == 1 {
            return Err(self.last_key());
        }
        self.keys.remove(i);
        Ok(())
    }

    /// Moves the key at `from` to `to`.
    pub fn move_key(&mut self, from: i64, to: i64) -> Result<(), KeyEditError> {
        let i = self.index_of(from)?;
        if from == to {
            return Ok(());
        }
        if self.key_at(to).is_some() {
            return Err(self.occupied(to));
        }
        let mut moved = self.clone();
        let key = moved.keys.remove(i);
        moved.set_key(to, key.pose.clone())?;
        // The whole key moved: the parts it holds and its span's interpolation and ease too.
        if let Ok(j) = moved.keys.binary_search_by_key(&to, |k| k.frame) {
            moved.keys[j] = Key { frame: to, ..key };
        }
        *self = moved;
        Ok(())
    }

    /// The frames `first ..= last` as a clip.
    pub fn copy_range(&self, first: i64, last: i64) -> Result<Clip, KeyEditError> {
        self.check_range(first, last)?;
        Ok(Clip {
            length: last - first + 1,
            keys: self
                .keys
                .iter()
                .filter(|k| (first..=last).contains(&k.frame))
                .map(|k| Key {
                    frame: k.frame - first,
                    ..k.clone()
                })
                .collect(),
        })
    }

    /// Removes the frames `first ..= last`: their keys go, later keys move back by the range's
    /// length.
    pub fn delete_range(&mut self, first: i64, last: i64) -> Result<(), KeyEditError> {
        self.check_range(first, last)?;
        let length = last - first + 1;
        if self.keys.iter().all(|k| (first..=last).contains(&k.frame)) {
            return Err(self.last_key());
        }
        self.keys.retain(|k| !(first..=last).contains(&k.frame));
        for k in &mut self.keys {
            if k.frame > last {
                k.frame -= length;
            }
        }
        Ok(())
    }

    /// The range cut out: copied, then deleted.
    pub fn cut_range(&mut self, first: i64, last: i64) -> Result<Clip, KeyEditError> {
        let clip = self.copy_range(first, last)?;
        self.delete_range(first, last)?;
        Ok(clip)
    }

    /// Inserts `count` empty frames before `at`: keys at or after it move on by `count`.
    pub fn insert_frames(&mut self, at: i64, count: i64) -> Result<(), KeyEditError> {
        if count < 1 {
            return Err(self.bad_range(format!("cannot insert {count} frames")));
        }
        self.check_limits(at, at)?;
        if count > MAX_SPAN {
            return Err(self.too_long(at, at.saturating_add(count)));
        }
        let mut moved = self.clone();
        for k in &mut moved.keys {
            if k.frame >= at {
                k.frame += count;
            }
        }
        moved.check_keys()?;
        *self = moved;
        Ok(())
    }

    /// Pastes `clip` at `at`: its length of frames is inserted there and filled with its keys.
    pub fn paste(&mut self, at: i64, clip: &Clip) -> Result<(), KeyEditError> {
        let mut pasted = self.clone();
        pasted.insert_frames(at, clip.length)?;
        for k in &clip.keys {
            let frame = at.saturating_add(k.frame);
            pasted.set_key(frame, k.pose.clone())?;
            // The whole key: the parts it holds, its span's interpolation, ease and handles.
            if let Ok(j) = pasted.keys.binary_search_by_key(&frame, |p| p.frame) {
                pasted.keys[j] = Key { frame, ..k.clone() };
            }
        }
        *self = pasted;
        Ok(())
    }

    /// Stretches or shrinks the frames `first ..= last` to `length` frames: their keys are
    /// spaced in proportion (rounded to whole frames), later keys move by the change in length.
    pub fn retime_range(&mut self, first: i64, last: i64, length: i64) -> Result<(), KeyEditError> {
        self.check_range(first, last)?;
        let old = last - first + 1;
        if length < 1 {
            return Err(self.bad_range(format!("cannot retime to {length} frames")));
        }
        if length > MAX_SPAN {
            return Err(self.too_long(first, first.saturating_add(length)));
        }
        let mut moved = self.clone();
        for k in &mut moved.keys {
            if (first..=last).contains(&k.frame) {
                // Handles stretch with their keys.
                let scale = if old == 1 {
                    1.0
                } else {
                    (length - 1) as f64 / (old - 1) as f64
                };
                for h in &mut k.handles {
                    h.before[0] = (h.before[0] * scale).max(-(MAX_SPAN as f64));
                    h.after[0] = (h.after[0] * scale).min(MAX_SPAN as f64);
                }
                k.frame = if old == 1 {
                    first
                } else {
                    first
                        + ((k.frame - first) as f64 * (length - 1) as f64 / (old - 1) as f64)
                            .round() as i64
                };
            } else if k.frame > last {
                k.frame += length - old;
            }
        }
        if let Some(pair) = moved.keys.windows(2).find(|p| p[0].frame >= p[1].frame) {
            return Err(self.occupied(pair[1].frame));
        }
        moved.check_keys()?;
        *self = moved;
        Ok(())
    }

    /// Moves the keys of `first ..= last` by `delta` frames; refused when they would land on
    /// or pass a key outside the range.
    pub fn slide_range(&mut self, first: i64, last: i64, delta: i64) -> Result<(), KeyEditError> {
        self.check_range(first, last)?;
        if delta.unsigned_abs() > MAX_SPAN.unsigned_abs() {
            return Err(self.too_long(first.saturating_add(delta), last.saturating_add(delta)));
        }
        let inside = |f: i64| (first..=last).contains(&f);
        let (lo, hi) = (first.min(first + delta), last.max(last + delta));
        if let Some(k) = self
            .keys
            .iter()
            .find(|k| !inside(k.frame) && (lo..=hi).contains(&k.frame))
        {
            return Err(self.occupied(k.frame));
        }
        let mut moved = self.clone();
        for k in &mut moved.keys {
            if inside(k.frame) {
                k.frame += delta;
            }
        }
        moved.check_keys()?;
        *self = moved;
        Ok(())
    }

    /// The index of the key at `frame`, or the error naming it missing.
    pub(crate) fn index_of(&self, frame: i64) -> Result<usize, KeyEditError> {
        self.keys
            .binary_search_by_key(&frame, |k| k.frame)
            .map_err(|_| KeyEditError::NoKey {
                sequence: self.name.clone(),
                frame,
            })
    }

    fn check_range(&self, first: i64, last: i64) -> Result<(), KeyEditError> {
        if last < first {
            return Err(self.bad_range(format!("the range {first}–{last} ends before it starts")));
        }
        self.check_limits(first, last)
    }

    /// Whether keys from `first` to `last` would be within the limits.
    fn check_limits(&self, first: i64, last: i64) -> Result<(), KeyEditError> {
        if first < -MAX_FRAME || last > MAX_FRAME || last - first >= MAX_SPAN {
            return Err(self.too_long(first, last));
        }
        Ok(())
    }

    /// Whether the keys are within the limits.
    fn check_keys(&self) -> Result<(), KeyEditError> {
        match (self.keys.first(), self.keys.last()) {
            (Some(a), Some(b)) => self.check_limits(a.frame, b.frame),
            _ => Ok(()),
        }
    }

    fn too_long(&self, first: i64, last: i64) -> KeyEditError {
        KeyEditError::TooLong {
            sequence: self.name.clone(),
            first,
            last,
        }
    }

    fn last_key(&self) -> KeyEditError {
        KeyEditError::LastKey {
            sequence: self.name.clone(),
        }
    }

    fn occupied(&self, frame: i64) -> KeyEditError {
        KeyEditError::Occupied {
            sequence: self.name.clone(),
            frame,
        }
    }

    fn bad_range(&self, what: String) -> KeyEditError {
        KeyEditError::BadRange {
            sequence: self.name.clone(),
            what,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{RootInterpolation, RotationInterpolation};
    use proptest::prelude::*;

    /// Keys at `frames`, each pose's root x its frame (to follow the keys around).
    fn seq(frames: &[i64]) -> Sequence {
        Sequence {
            name: "walk".into(),
            fps: 24.0,
            rotation: RotationInterpolation::Slerp,
            root: RootInterpolation::Linear,
            hold_locks: true,
            keys: frames
                .iter()
                .map(|&f| {
                    Key::new(
                        f,
                        Pose {
                            q: vec![f as f64, 0.0, 0.0],
                        },
                    )
                })
                .collect(),
        }
    }

    fn frames(s: &Sequence) -> Vec<i64> {
        s.keys.iter().map(|k| k.frame).collect()
    }

    #[test]
    fn keys_are_set_deleted_and_moved() {
        let mut s = seq(&[0, 10]);
        s.set_key(5, Pose { q: vec![5.0; 3] })
            .expect("within the limits");
        assert_eq!(frames(&s), [0, 5, 10]);
        s.move_key(5, 7).expect("move");
        assert_eq!(frames(&s), [0, 7, 10]);
        assert_eq!(s.key_at(7).expect("key").pose.q, vec![5.0; 3]);
        assert!(matches!(
            s.move_key(7, 10),
            Err(KeyEditError::Occupied { frame: 10, .. })
        ));
        assert!(matches!(
            s.delete_key(3),
            Err(KeyEditError::NoKey { frame: 3, .. })
        ));
        s.delete_key(0).expect("delete");
        s.delete_key(7).expect("delete");
        let err = s.delete_key(10).expect_err("the last key stays");
        assert!(
            err.to_string()
                .contains("\"walk\" must keep at least one key"),
            "{err}"
        );
        assert_eq!(frames(&s), [10]);
    }

    #[test]
    fn ranges_are_cut_pasted_inserted_retimed_and_slid() {
        let mut s = seq(&[0, 4, 8, 12]);
        let clip = s.cut_range(4, 7).expect("cut");
        assert_eq!((clip.length, clip.keys.len()), (4, 1));
        assert_eq!(frames(&s), [0, 4, 8]); // 8 → 4, 12 → 8
        s.paste(4, &clip).expect("paste");
        assert_eq!(frames(&s), [0, 4, 8, 12]);
        assert_eq!(s.key_at(4).expect("key").pose.q[0], 4.0);
        // A pasted key keeps what it holds, its span's interpolation and ease and its handles.
        s.keys[1].only = Some(crate::KeyedParts::new([], true));
        s.keys[1].ease = 0.5;
        s.keys[1].handles = vec![crate::FreeHandles {
            state: 3,
            before: [-2.0, 0.0],
            after: [2.0, 0.0],
        }];
        let clip = s.cut_range(4, 7).expect("cut");
        s.paste(4, &clip).expect("paste");
        let pasted = s.key_at(4).expect("key");
        assert_eq!(
            (
                pasted.only.as_ref().map(|o| o.root),
                pasted.ease,
                pasted.handles.len()
            ),
            (Some(true), 0.5, 1)
        );
        // Handles stretch with their keys.
        s.retime_range(4, 7, 7).expect("stretch");
        assert_eq!(s.key_at(4).expect("key").handles[0].after[0], 4.0);
        s.retime_range(4, 10, 4).expect("back");
        s.insert_frames(8, 2).expect("insert");
        assert_eq!(frames(&s), [0, 4, 10, 14]);
        s.retime_range(0, 10, 6).expect("shrink");
        assert_eq!(frames(&s), [0, 2, 5, 9]);
        s.retime_range(0, 5, 11).expect("stretch");
        assert_eq!(frames(&s), [0, 4, 10, 14]);
        assert!(
            s.retime_range(0, 10, 2).is_err(),
            "three keys in two frames"
        );
        s.slide_range(4, 10, 2).expect("slide");
        assert_eq!(frames(&s), [0, 6, 12, 14]);
        assert!(matches!(
            s.slide_range(6, 12, 2),
            Err(KeyEditError::Occupied { frame: 14, .. })
        ));
        assert!(s.delete_range(0, 20).is_err());
        assert!(s.copy_range(5, 4).is_err());
        assert!(s.insert_frames(0, 0).is_err());
    }

    /// Frames, counts and deltas: mostly near the keys, sometimes at or past the limits.
    fn frame() -> impl Strategy<Value = i64> {
        prop_oneof![
            8 => -25i64..65,
            1 => prop_oneof![
                Just(i64::MIN),
                Just(i64::MAX),
                Just(MAX_FRAME),
                Just(-MAX_FRAME - 1),
                Just(MAX_SPAN - 1),
                Just(MAX_SPAN),
                Just(2_000_000_000),
            ],
        ]
    }

    proptest! {
        #[test]
        fn a_refused_edit_changes_nothing_and_an_accepted_one_keeps_the_keys_valid(
            keys in proptest::collection::btree_set(-20i64..60, 1..8),
            op in 0usize..8, a in frame(), b in frame(), n in frame(),
        ) {
            let keys: Vec<i64> = keys.into_iter().collect();
            let mut s = seq(&keys);
            let before = s.clone();
            let (first, last) = (a.min(b), a.max(b));
            let result = match op {
                0 => s.delete_key(a),
                1 => s.move_key(a, b),
                2 => s.delete_range(first, last),
                3 => s.insert_frames(a, n),
                4 => s.retime_range(first, last, n),
                5 => s.slide_range(first, last, n),
                6 => s.set_key(a, Pose { q: vec![0.5; 3] }),
                _ => s.copy_range(first, last).and_then(|c| s.paste(b, &c)),
            };
            if result.is_err() {
                prop_assert_eq!(&s, &before);
            }
            prop_assert!(s.defects().is_empty(), "{:?}", s.defects());
            // Every key keeps its pose: root x still names the frame it was made at.
            for k in s.keys.iter().filter(|k| k.pose.q[0] != 0.5) {
                prop_assert!(before.keys.iter().any(|b| b.pose == k.pose));
            }
        }
    }
}
